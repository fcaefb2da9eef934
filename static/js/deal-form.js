/* The deal form, enhanced: a card counter that fills the points field as cards are counted
   (steppers.js adds the - and + buttons), and Enter that moves to the next field. Without this file the form works the same: the
   server adds up the counted cards on save. */
(function () {
  "use strict";

  var form = document.getElementById("deal-form");
  if (!form) {
    return;
  }
  form.querySelectorAll("[data-counter-for]").forEach(function (group) {
    var target = document.getElementById(group.dataset.counterFor);
    var total = group.querySelector(".count-total");
    group.addEventListener("input", function () {
      var points = 0;
      var counted = false;
      group.querySelectorAll("input[data-points]").forEach(function (input) {
        var count = parseInt(input.value, 10);
        if (!isNaN(count)) {
          counted = true;
          points += count * parseInt(input.dataset.points, 10);
        }
      });
      target.value = counted ? String(points) : "";
      total.textContent = counted ? form.dataset.counted.replace("%s", points) : "";
    });
  });

  // Enter in a number field goes on to the next field shown (a closed card counter's fields
  // are skipped), as a phone keyboard's "next" key does: a half-typed deal is saved only with
  // the Save button.
  function nextField(input) {
    var fields = Array.prototype.filter.call(form.elements, function (element) {
      return (
        (element.type === "number" || element.type === "submit") &&
        !element.disabled &&
        !element.closest("details:not([open])") &&
        element.getClientRects().length > 0
      );
    });
    return fields[fields.indexOf(input) + 1] || null;
  }

  form.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key !== "Enter" || input.type !== "number" || event.isComposing) {
      return;
    }
    event.preventDefault();
    var next = nextField(input);
    if (next) {
      next.focus();
    }
  });

  var problems = document.getElementById("problems");
  if (problems) {
    problems.focus();
  }
})();
