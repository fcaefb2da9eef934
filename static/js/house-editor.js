/* The house-rules form on a phone: "Your changes" follows the form as it is edited (the server
   words the summary, from the rules core, as on the saved rules' page), and a rule is found by
   typing a few words of its name, help or base value. Without this file the summary follows on
   saving, and every group opens by hand. */
(function () {
  "use strict";

  var form = document.querySelector("form[data-changes-url]");
  if (!form) {
    return;
  }

  // --- "Your changes", kept up to date ---------------------------------------------------
  var latest = 0;
  var waiting = 0;

  function refreshSummary() {
    var ticket = ++latest;
    fetch(form.dataset.changesUrl, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { Accept: "text/html" },
    })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        var summary = document.getElementById("house-summary");
        if (html === null || ticket !== latest || !summary) {
          return;
        }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var replacement = fresh.getElementById("house-summary");
        if (replacement) {
          summary.replaceWith(document.importNode(replacement, true));
        }
      })
      .catch(function () {
        /* offline: the summary follows on saving */
      });
  }

  function summaryLater(event) {
    if (event.target.id === "rule-finder") {
      return;
    }
    window.clearTimeout(waiting);
    waiting = window.setTimeout(refreshSummary, 250);
  }

  if (window.fetch && window.DOMParser && window.FormData) {
    form.addEventListener("input", summaryLater);
    form.addEventListener("change", summaryLater);
  }

  // --- finding a rule by typing ----------------------------------------------------------
  var finder = document.getElementById("rule-finder");
  var status = document.getElementById("rule-finder-status");
  var groups = Array.prototype.slice.call(form.querySelectorAll(".house-others .house-group"));
  if (!finder || !status) {
    return;
  }
  finder.closest(".rule-finder").hidden = false;

  function fold(text) {
    return text.toLocaleLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  groups.forEach(function (group) {
    group.querySelectorAll(".house-param").forEach(function (param) {
      var texts = param.querySelectorAll("label, legend, .base-value, .hint");
      param.dataset.words = fold(
        Array.prototype.map
          .call(texts, function (text) {
            return text.textContent;
          })
          .join(" ")
      );
    });
  });

  function find() {
    var words = fold(finder.value).split(/\s+/).filter(Boolean);
    var found = 0;
    groups.forEach(function (group) {
      var inGroup = 0;
      group.querySelectorAll(".house-param").forEach(function (param) {
        var match = words.every(function (word) {
          return param.dataset.words.indexOf(word) !== -1;
        });
        param.hidden = words.length > 0 && !match;
        if (match) {
          inGroup += 1;
        }
      });
      found += inGroup;
      group.hidden = words.length > 0 && inGroup === 0;
      group.open = words.length > 0 && inGroup > 0;
    });
    if (!words.length) {
      status.textContent = "";
    } else if (found === 0) {
      status.textContent = status.dataset.none.replace("%s", finder.value.trim());
    } else {
      status.textContent = status.dataset.some.replace("%s", String(found));
    }
  }

  finder.addEventListener("input", find);
  finder.addEventListener("keydown", function (event) {
    if (event.key === "Enter") {
      event.preventDefault(); // Enter finds; it does not save the rules
    }
  });
})();
