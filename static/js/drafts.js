// Nothing typed into a deal form is lost: every change is kept on this phone as the form's
// draft and put back when the form opens again (after a reload, Back, a language change or a
// lost network); a deal kept on the phone without a network fills its form the same way.
// Cancel asks first when something was typed. Fields are found by name, whatever the layout.
(function () {
  "use strict";
  var store = window.offlineStore;
  var carrier = document.querySelector("script[data-texts]");
  var texts = JSON.parse((carrier && carrier.getAttribute("data-texts")) || "{}");
  var NOT_KEPT = { csrf_token: true, confirm: true };
  var path = window.location.pathname;
  var each = Array.prototype.forEach;

  // The fields as the form would post them, but for the CSRF token and the warnings' key.
  function fieldsOf(form, submitter) {
    var pairs = [];
    new FormData(form, submitter || undefined).forEach(function (value, name) {
      if (typeof value === "string" && !NOT_KEPT[name]) {
        pairs.push([name, value]);
      }
    });
    return pairs;
  }

  function fill(form, pairs) {
    var values = {};
    pairs.forEach(function (pair) {
      (values[pair[0]] = values[pair[0]] || []).push(pair[1]);
    });
    var seen = {};
    each.call(form.elements, function (field) {
      var name = field.name;
      if (!name || NOT_KEPT[name] || field.type === "submit" || field.type === "button") {
        return;
      }
      var given = values[name] || [];
      var checkable = field.type === "radio" || field.type === "checkbox";
      var before = checkable ? field.checked : field.value;
      if (checkable) {
        field.checked = given.indexOf(field.value) !== -1;
      } else {
        seen[name] = (seen[name] || 0) + 1;
        field.value = given.length >= seen[name] ? given[seen[name] - 1] : "";
      }
      if (before !== (checkable ? field.checked : field.value)) {
        field.dispatchEvent(new Event("input", { bubbles: true }));
        field.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  }

  function sameFields(kept, typed) {
    var own = kept.filter(function (pair) { return !NOT_KEPT[pair[0]]; });
    return JSON.stringify(own) === JSON.stringify(typed);
  }

  // A line beside the Save button, where the thumb is (read out: role=status).
  function sayBesideSave(text) {
    var status = document.getElementById("save-status");
    if (status) {
      status.textContent = text;
      status.className = "save-status flash flash-warning";
      status.hidden = false;
      status.setAttribute("data-state", "already");
    }
  }

  function notice(form, text, discard) {
    var line = document.createElement("p");
    line.className = "flash flash-warning";
    line.setAttribute("role", "status");
    line.textContent = text + " ";
    if (discard) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "secondary";
      button.textContent = texts.discard;
      button.addEventListener("click", function () {
        store.forgetDraft(path);
        window.location.replace(path);
      });
      line.appendChild(button);
    }
    var box = document.createElement("div");
    box.className = "flashes draft-status";
    box.appendChild(line);
    form.parentNode.insertBefore(box, form);
  }

  // The form posted to this very address with fields to type (not the conflict page's).
  function dealForm() {
    return Array.prototype.find.call(document.forms, function (form) {
      var action = new URL(form.getAttribute("action") || "", window.location.href);
      var typed = Array.prototype.some.call(form.elements, function (field) {
        return field.name && field.type !== "hidden" && field.tagName !== "BUTTON";
      });
      return (form.getAttribute("method") || "").toLowerCase() === "post" && typed &&
        action.pathname === path;
    });
  }

  function watch(form) {
    var baseline = JSON.stringify(fieldsOf(form));
    var game = path.replace(/\/deals\/\d+$/, "");

    function remember() {
      var fields = fieldsOf(form);
      if (JSON.stringify(fields) !== baseline || store.draft(path)) {
        store.writeDraft(path, fields);
      }
    }
    form.addEventListener("input", remember);
    form.addEventListener("change", remember);

    form.addEventListener("submit", function (event) {
      remember();
      // Its totals, for the scoreboard this phone kept to count it should the deal stay here
      // (no network, or a server out of reach while the phone believes it is online: the
      // worker keeps the deal then); they go with it once the server has saved it.
      store.keepScores(path, fieldsOf(form, event.submitter),
        JSON.parse(form.getAttribute("data-kept-prices") || "null"),
        form.querySelectorAll("fieldset.side").length);
      if (!navigator.onLine && !(navigator.serviceWorker && navigator.serviceWorker.controller)) {
        // No worker to catch the post (a first visit, or a site without HTTPS): kept here,
        // once; offline-sync.js shows its state beside Save and sends it.
        event.preventDefault();
        var token = form.querySelector("input[name=csrf_token]");
        var fields = fieldsOf(form, event.submitter);
        store.get(path).catch(function () { return null; }).then(function (kept) {
          if (kept && kept.state === "pending" && sameFields(kept.fields, fields)) {
            sayBesideSave(texts.already.replace("%s", kept.number));
            return undefined;
          }
          return store.keep(path, token ? [["csrf_token", token.value]].concat(fields) : fields)
            .then(function () {
              store.forgetDraft(path);
              document.dispatchEvent(new CustomEvent("offline-deals-changed"));
            });
        });
        return;
      }
      store.submitting(path);
    });

    each.call(form.querySelectorAll("a[href]"), function (link) {
      if (new URL(link.href).pathname !== game) {
        return;  // only Cancel leads back to the game; a rules link keeps the draft
      }
      link.addEventListener("click", function (event) {
        if (!store.draft(path)) {
          return;
        }
        if (window.confirm(texts.cancel)) {
          store.forgetDraft(path);
        } else {
          event.preventDefault();
        }
      });
    });

    // Editing a deal kept on the phone makes Save, disabled while it waits, replace it.
    form.addEventListener("input", function () {
      var save = form.querySelector("button[name=save]");
      var status = document.getElementById("save-status");
      if (save && status && status.getAttribute("data-state") === "pending") {
        save.disabled = false;
      }
    });

    store.get(path).catch(function () { return null; }).then(function (record) {
      var draft = store.draft(path);
      if (record) {
        fill(form, record.fields);  // its state shows beside Save (offline-sync.js)
      } else if (draft && JSON.stringify(draft.fields) !== baseline) {
        fill(form, draft.fields);
        notice(form, texts.restored, true);
      }
    });
  }

  var form = dealForm();
  if (form) {
    watch(form);
  }
}());
