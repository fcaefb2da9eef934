/* - and + buttons beside the counts of any form that names them (data-less, data-more), so a
   count is a tap, not a keyboard. Without this file the number fields work as they are. */
(function () {
  "use strict";

  document.documentElement.classList.add("js");

  function labelText(form, input) {
    var label = form.querySelector('label[for="' + input.id + '"]');
    return label ? label.firstChild.textContent.trim() : input.name;
  }

  function bound(input, name, fallback) {
    var value = parseInt(input.getAttribute(name), 10);
    return isNaN(value) ? fallback : value;
  }

  function step(input, delta) {
    var value = (parseInt(input.value, 10) || 0) + delta;
    value = Math.max(bound(input, "min", 0), Math.min(bound(input, "max", Infinity), value));
    input.value = String(value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function stepButton(text, template, delta, input, form) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "step";
    button.tabIndex = -1; // keyboards use the field's own arrow keys; one tab stop a field
    button.textContent = text;
    button.setAttribute("aria-label", template.replace("%s", labelText(form, input)));
    button.addEventListener("click", function () {
      step(input, delta);
    });
    return button;
  }

  /* A field at its maximum says so (data-most) and its + is disabled, rather than + doing
     nothing. */
  function showBounds(input, more, note, template) {
    var value = parseInt(input.value, 10) || 0;
    var most = bound(input, "max", Infinity);
    more.disabled = value >= most;
    if (note) {
      note.textContent = value >= most ? template.replace("%s", String(most)) : "";
    }
  }

  document.querySelectorAll("form[data-less][data-more]").forEach(function (form) {
    form.querySelectorAll("input[data-stepper], .count input").forEach(function (input) {
      var wrap = document.createElement("div");
      wrap.className = "stepper";
      input.parentNode.insertBefore(wrap, input);
      var less = stepButton("\u2212", form.dataset.less, -1, input, form);
      var more = stepButton("+", form.dataset.more, 1, input, form);
      wrap.appendChild(less);
      wrap.appendChild(input);
      wrap.appendChild(more);
      var note = null;
      if (form.dataset.most && input.hasAttribute("max")) {
        note = document.createElement("p");
        note.className = "hint step-most";
        note.id = input.id + "-most";
        note.setAttribute("aria-live", "polite");
        wrap.parentNode.insertBefore(note, wrap.nextSibling);
        var described = input.getAttribute("aria-describedby");
        input.setAttribute("aria-describedby", (described ? described + " " : "") + note.id);
      }
      var update = function () {
        showBounds(input, more, note, form.dataset.most || "");
      };
      input.addEventListener("input", update);
      input.addEventListener("change", update);
      update();
    });
  });
})();
