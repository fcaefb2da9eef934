/* The deal form at the table: each side's total while typing, scored by the server's rules
   (the form is posted to its preview address, which saves nothing), and the books the rules
   ask for going out filled in for the side that went out. Without this file the form works
   the same: the totals show once saved. */
(function () {
  "use strict";

  var form = document.getElementById("deal-form");
  if (!form || !form.dataset.preview || !window.fetch) {
    return;
  }
  var totals = document.getElementById("live-totals");
  var problems = document.getElementById("live-problems");
  // A side's name (its fieldset's legend) and its total, as the server words it.
  var outputs = Array.prototype.map.call(form.querySelectorAll("fieldset.side > legend"),
    function (legend, side) {
      var line = document.createElement("span");
      var name = document.createElement("span");
      var output = document.createElement("output");
      line.className = "live-side";
      name.className = "live-name";
      name.textContent = legend.textContent;
      output.className = "num";
      output.dataset.side = String(side);
      line.append(name, " ", output);
      totals.append(" ", line);
      return output;
    });
  var timer = null;
  var asked = 0;

  function show(answer) {
    totals.hidden = !answer.totals;
    if (answer.totals) {
      outputs.forEach(function (output) {
        output.value = String(answer.totals[Number(output.dataset.side)]);
      });
    }
    problems.textContent = "";
    answer.errors.concat(answer.warnings).forEach(function (problem, index) {
      var item = document.createElement("li");
      item.textContent = problem.message;
      if (index >= answer.errors.length) {
        item.className = "warning-item";
      }
      problems.appendChild(item);
    });
    problems.hidden = !problems.firstChild;
  }

  function preview() {
    var number = ++asked;
    var body = new URLSearchParams(new FormData(form));
    fetch(form.dataset.preview, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (answer) {
        if (answer && number === asked) {
          show(answer);
        }
      })
      .catch(function () {
        /* No network: no totals rather than stale ones, until the next answer; saving still
           checks everything. */
        if (number === asked) {
          totals.hidden = true;
        }
      });
  }

  function later() {
    window.clearTimeout(timer);
    timer = window.setTimeout(preview, 300);
  }

  // The side chosen as the one that went out gets at least the books going out needs, in the
  // fields still empty; a side no longer chosen loses the books filled in for it, if untouched.
  var books = JSON.parse(form.dataset.goingOutBooks || "{}");
  function fillBooks(side) {
    form.querySelectorAll("input[data-filled]").forEach(function (input) {
      if (input.value === input.dataset.filled) {
        input.value = "";
      }
      delete input.dataset.filled;
    });
    Object.keys(books).forEach(function (name) {
      var input = form.querySelector('input[name="sides-' + side + "-" + name + '"]');
      if (input && input.value.trim() === "") {
        input.value = String(books[name]);
        input.dataset.filled = input.value;
      }
    });
  }

  form.addEventListener("input", later);
  form.addEventListener("change", function (event) {
    var target = event.target;
    if (target.name === "went_out" && /^\d+$/.test(target.value)) {
      fillBooks(target.value);
    }
    later();
  });
  // A deal being edited, or typed before a reload, shows its totals at once; an empty form
  // waits for the first entry rather than listing what is still missing.
  var typed = Array.prototype.some.call(form.elements, function (element) {
    return element.type === "radio" ? element.checked : element.type === "number" && element.value;
  });
  if (typed) {
    preview();
  }
})();
