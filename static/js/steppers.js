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

  document.querySelectorAll("form[data-less][data-more]").forEach(function (form) {
    form.querySelectorAll("input[data-stepper], input[data-points]").forEach(function (input) {
      var wrap = document.createElement("div");
      wrap.className = "stepper";
      input.parentNode.insertBefore(wrap, input);
      wrap.appendChild(stepButton("\u2212", form.dataset.less, -1, input, form));
      wrap.appendChild(input);
      wrap.appendChild(stepButton("+", form.dataset.more, 1, input, form));
    });
  });
})();
