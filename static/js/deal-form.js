/* The deal form, enhanced: a card counter that fills the points field as cards are counted
   (steppers.js adds the - and + buttons). Without this file the form works the same: the
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

  var problems = document.getElementById("problems");
  if (problems) {
    problems.focus();
  }
})();
