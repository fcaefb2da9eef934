// Nothing typed into a deal form is lost: every change is kept on this phone (localStorage,
// under the form's address) and put back when the form opens again: after a reload, Back, a
// language change or a lost network. A draft goes once its deal is saved (the form was
// posted and the next page is another address). A deal kept on the phone without a network
// (offline-store.js) fills its form the same way. Cancel asks first when something was typed.
// Fields are found by name, whatever the form's layout.
(function () {
  "use strict";
  var PREFIX = "draft:";
  var SUBMITTED = "draft-submitted";
  var NOT_KEPT = { csrf_token: true, confirm: true };
  var KEPT_MARK = "#kept-on-this-phone";  // where the worker sends a deal posted offline
  var DEAL_PATH = /^\/g\/([^/]+)\/deals\/\d+$/;
  var carrier = document.querySelector("script[data-texts]");  // offline.js: the page's texts
  var texts = JSON.parse((carrier && carrier.getAttribute("data-texts")) || "{}");

  function storage(kind) {
    try {
      return window[kind];
    } catch (error) {
      return null;
    }
  }
  var local = storage("localStorage");
  var session = storage("sessionStorage");

  function readDraft(path) {
    try {
      var text = local && local.getItem(PREFIX + path);
      return text ? JSON.parse(text) : null;
    } catch (error) {
      return null;
    }
  }

  function writeDraft(path, fields) {
    try {
      local.setItem(PREFIX + path, JSON.stringify({ fields: fields, at: Date.now() }));
    } catch (error) { /* storage full or refused: the form still works */ }
  }

  function forget(path) {
    if (local) {
      local.removeItem(PREFIX + path);
    }
  }

  // The form's fields as it would post them, but for the CSRF token and the warnings' key.
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
      if (!NOT_KEPT[pair[0]]) {
        (values[pair[0]] = values[pair[0]] || []).push(pair[1]);
      }
    });
    var seen = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      var name = field.name;
      if (!name || NOT_KEPT[name] || field.type === "submit" || field.type === "button") {
        return;
      }
      var given = values[name] || [];
      var changed;
      if (field.type === "radio" || field.type === "checkbox") {
        var checked = given.indexOf(field.value) !== -1;
        changed = field.checked !== checked;
        field.checked = checked;
      } else {
        var index = seen[name] = (seen[name] || 0);
        seen[name] += 1;
        var value = index < given.length ? given[index] : "";
        changed = field.value !== value;
        field.value = value;
      }
      if (changed) {
        field.dispatchEvent(new Event("input", { bubbles: true }));
        field.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  }

  function notice(text, withDiscard, form, path) {
    var box = document.createElement("div");
    box.className = "flashes draft-status";
    var line = document.createElement("p");
    line.className = "flash flash-warning";
    line.setAttribute("role", "status");
    line.textContent = text + " ";
    if (withDiscard) {
      var discard = document.createElement("button");
      discard.type = "button";
      discard.className = "secondary";
      discard.textContent = texts.discard;
      discard.addEventListener("click", function () {
        forget(path);
        window.location.replace(window.location.pathname);
      });
      line.appendChild(discard);
    }
    box.appendChild(line);
    form.parentNode.insertBefore(box, form);
  }

  function submittedBefore() {
    var path = session && session.getItem(SUBMITTED);
    if (path) {
      session.removeItem(SUBMITTED);
      if (path !== window.location.pathname) {
        // The deal was saved, or kept on the phone by the worker: the next page is elsewhere.
        forget(path);
        if (window.location.hash !== KEPT_MARK && window.offlineStore) {
          window.offlineStore.remove(path);  // saved by the server: a copy kept before is done
        }
      }
    }
  }

  function dealForm() {
    if (!DEAL_PATH.test(window.location.pathname)) {
      return null;
    }
    return Array.prototype.find.call(document.forms, function (form) {
      var method = (form.getAttribute("method") || "get").toLowerCase();
      var target = new URL(form.getAttribute("action") || "", window.location.href);
      var typed = Array.prototype.some.call(form.elements, function (field) {
        return field.name && field.type !== "hidden" && field.tagName !== "BUTTON";
      });
      return method === "post" && typed && target.pathname === window.location.pathname;
    }) || null;
  }

  function cancelLinks(form) {
    var game = "/g/" + DEAL_PATH.exec(window.location.pathname)[1];
    return Array.prototype.filter.call(form.querySelectorAll("a[href]"), function (link) {
      return new URL(link.href).pathname === game;
    });
  }

  function keepOffline(form, path, submitter) {
    var fields = fieldsOf(form, submitter);
    var token = form.querySelector("input[name=csrf_token]");
    if (token) {
      fields.unshift(["csrf_token", token.value]);
    }
    return window.offlineStore.keep(path, fields).then(function () {
      forget(path);
      notice(texts.kept, false, form, path);
      document.dispatchEvent(new CustomEvent("offline-deals-changed"));
    });
  }

  function watch(form) {
    var path = window.location.pathname;
    var baseline = JSON.stringify(fieldsOf(form));

    function remember() {
      var fields = fieldsOf(form);
      if (JSON.stringify(fields) !== baseline || readDraft(path)) {
        writeDraft(path, fields);
      }
    }
    form.addEventListener("input", remember);
    form.addEventListener("change", remember);

    form.addEventListener("submit", function (event) {
      remember();
      var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (!navigator.onLine && !worker && window.offlineStore) {
        // No worker to catch the post (its first visit, or a site without HTTPS).
        event.preventDefault();
        keepOffline(form, path, event.submitter);
        return;
      }
      if (session) {
        session.setItem(SUBMITTED, path);
      }
    });

    cancelLinks(form).forEach(function (link) {
      link.addEventListener("click", function (event) {
        if (!readDraft(path)) {
          return;
        }
        if (window.confirm(texts.cancel)) {
          forget(path);
        } else {
          event.preventDefault();
        }
      });
    });

    var kept = window.offlineStore ? window.offlineStore.get(path) : Promise.resolve(null);
    kept.catch(function () { return null; }).then(function (record) {
      if (record) {
        fill(form, record.fields);
        notice(texts.kept, false, form, path);
        return;
      }
      var draft = readDraft(path);
      if (draft && JSON.stringify(draft.fields) !== baseline) {
        fill(form, draft.fields);
        notice(texts.restored, true, form, path);
      }
    });
  }

  submittedBefore();
  var form = dealForm();
  if (form) {
    watch(form);
  }
}());
