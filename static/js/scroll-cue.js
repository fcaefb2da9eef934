/* A table wider than the screen says so: while columns lie beyond its right edge, the edge
   fades and a line under the table says to swipe it sideways. Without this file the table
   still scrolls, by touch or with the keyboard (it is a focusable region). */
(function () {
  "use strict";

  document.querySelectorAll("[data-scroll-cue]").forEach(function (wrap) {
    var cue = document.getElementById(wrap.dataset.scrollCue);
    if (!cue) {
      return;
    }
    function update() {
      var more = wrap.scrollLeft + wrap.clientWidth < wrap.scrollWidth - 1;
      wrap.classList.toggle("more-right", more);
      cue.hidden = !more;
    }
    wrap.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    update();
  });
})();
