/* The deal form, enhanced: a card counter that fills the points field as cards are counted
   (steppers.js, after this file, adds the - and + buttons), Enter that moves to the next field,
   and the page opened on the deal. Without this file the form works the same: the server adds
   up the counted cards on save, and shows a side's counter when its button asks. */
(function () {
  "use strict";

  var form = document.getElementById("deal-form");
  if (!form) {
    return;
  }
  // The points of one card of each kind, by points field, are the form's data-kept-prices
  // "counters" (sent once for every side): a field's name without its side's "sides-N-".
  var counters = JSON.parse(form.dataset.keptPrices || "{}").counters || {};
  function unsided(name) {
    return name.replace(/^sides-\d+-/, "");
  }
  // Past a score pad the page sends once what every side shows alike: the card counters (in
  // template#counters, named for the first side) and the fields' hints (with the first side).
  var kept = document.getElementById("counters");
  if (kept) {
    form.querySelectorAll(".counter-open, #enter-saves").forEach(function (button) {
      button.remove(); // the server's counters, for a page without this file
    });
    form.querySelectorAll("fieldset.side .field > input").forEach(function (input) {
      var name = unsided(input.name);
      var side = input.name.slice(0, -name.length);
      var hint = document.getElementById("sides-0-" + name + "-hint");
      if (hint && side !== "sides-0-") {
        var echo = hint.cloneNode(true); // its room, unseen: the sides' fields stay level
        echo.removeAttribute("id");
        echo.className = "hint echo";
        echo.setAttribute("aria-hidden", "true");
        input.after(echo);
      }
      var group = kept.content.querySelector('[data-counter-for="sides-0-' + name + '"]');
      if (group && !input.parentNode.querySelector(".counter")) {
        var copy = group.parentNode.cloneNode(true);
        copy.querySelectorAll("[id], [for], [name], [data-counter-for]").forEach(function (node) {
          ["id", "for", "name", "data-counter-for"].forEach(function (attribute) {
            var value = node.getAttribute(attribute);
            if (value) {
              node.setAttribute(attribute, value.replace("sides-0-", side));
            }
          });
        });
        input.parentNode.appendChild(copy);
      }
    });
  }
  form.querySelectorAll("[data-counter-for]").forEach(function (group) {
    var target = document.getElementById(group.dataset.counterFor);
    var total = group.querySelector(".count-total");
    var each = counters[unsided(target.name)] || {};
    group.addEventListener("input", function () {
      var points = 0;
      var counted = false;
      group.querySelectorAll(".count input").forEach(function (input) {
        var count = parseInt(input.value, 10);
        if (!isNaN(count)) {
          counted = true;
          points += count * (each[unsided(input.name)] || 0);
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

  // The page opens on the deal itself (the score pad, else the first "went out" choice, at the
  // top of the screen), with room below to get there, so that the lines typed in stay in view
  // above the phone's keyboard; the rules of the deal and the turn are just above. Problems
  // shown by the server take the focus instead. Once every script has run: steppers.js, after
  // this file, changes the fields' heights.
  function openOnTheDeal() {
    var problems = document.getElementById("problems");
    // Before the first deal, the offer to share the game opens the screen, the pad just below.
    var start =
      document.querySelector(".share-prompt") ||
      form.querySelector(".sides.pad") ||
      form.querySelector(".went-out .choice");
    if (problems) {
      problems.focus();
    } else if (start && window.scrollY === 0) {
      var top = start.getBoundingClientRect().top - 4;
      var root = document.documentElement;
      var missing = top + window.innerHeight - root.scrollHeight;
      var main = document.querySelector("main") || document.body;
      if (missing > 0) {
        main.style.paddingBottom = missing + "px";
      }
      window.scrollTo(0, top);
    }
  }
  document.addEventListener("DOMContentLoaded", openOnTheDeal);
})();
