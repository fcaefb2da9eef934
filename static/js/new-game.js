/* The new-game form, enhanced: only the tables the chosen rules allow, and one name field per
   side of the chosen table, as soon as they change. Without this file a button asks the
   server for the same. */
(function () {
  "use strict";

  var form = document.getElementById("new-game");
  if (!form) {
    return;
  }
  document.documentElement.classList.add("js");

  var select = form.querySelector("select[name=table]");
  var names = form.querySelectorAll(".side-name");
  var seats = form.querySelectorAll(".seat");
  var seatGroups = form.querySelectorAll(".seats");

  function showNames() {
    var parts = select.value.split("x");
    var sides = parseInt(parts[0], 10);
    var teams = parseInt(parts[1], 10) > sides;
    names.forEach(function (field, index) {
      var label = field.querySelector("label");
      var input = field.querySelector("input");
      var text = teams ? label.dataset.team : label.dataset.player;
      field.hidden = index >= sides;
      label.textContent = text;
      input.placeholder = text;
    });
    var perSide = Math.floor(parseInt(parts[1], 10) / sides);
    seatGroups.forEach(function (group) {
      group.hidden = !teams || parseInt(group.dataset.side, 10) >= sides;
    });
    seats.forEach(function (field) {
      field.hidden = parseInt(field.dataset.seat, 10) >= perSide;
    });
  }

  function allowTables(radio) {
    var allowed = radio.dataset.tables.split(" ");
    Array.prototype.forEach.call(select.options, function (option) {
      var ok = allowed.indexOf(option.value) >= 0;
      option.disabled = !ok;
      option.hidden = !ok;
    });
    if (allowed.indexOf(select.value) < 0) {
      select.value = allowed[0];
    }
    showNames();
  }

  var chosenName = form.querySelector(".rules-choice-name");
  var chosenSummary = form.querySelector(".rules-choice-summary");

  /* The folded rules show the one now chosen, as the server would. */
  function showChoice(radio) {
    var label = form.querySelector("label[for='" + radio.id + "']");
    var summary = document.getElementById(radio.id + "-summary");
    if (chosenName && label && summary) {
      chosenName.textContent = label.firstChild ? label.firstChild.textContent : "";
      chosenSummary.textContent = summary.textContent;
    }
  }

  form.addEventListener("change", function (event) {
    if (event.target.name === "variant") {
      allowTables(event.target);
      showChoice(event.target);
    } else if (event.target === select) {
      showNames();
    }
  });

  var checked = form.querySelector("input[name=variant]:checked");
  if (checked) {
    allowTables(checked);
  }
})();
