/* The score sheet choices apply as soon as they change: the print page for the new choices is
   fetched, and the parts of the page that follow from them (notes, hints, the names, the
   preview) are taken from it, so the server stays the one that decides what the choices give.
   The download buttons always send the form as it is. Without this file, "Update preview"
   does the same with a page load. */
(function () {
  "use strict";

  var form = document.querySelector("form[data-live-sheet]");
  if (!form || !window.fetch || !window.DOMParser || !window.URLSearchParams) {
    return;
  }
  form.classList.add("live");
  var latest = 0;
  var typing = 0;

  function choicesUrl() {
    var url = new URL(form.action, window.location.href);
    url.search = new URLSearchParams(new FormData(form)).toString();
    return url;
  }

  function takeParts(fresh) {
    document.querySelectorAll("[data-live-part]").forEach(function (part) {
      if (part.contains(document.activeElement)) {
        return; // never pull a field away from under the fingers typing into it
      }
      var replacement = fresh.getElementById(part.id);
      if (replacement) {
        part.replaceWith(document.importNode(replacement, true));
      }
    });
    form.querySelectorAll("select").forEach(function (select) {
      var chosen = fresh.getElementById(select.id);
      if (chosen && chosen.value !== select.value) {
        select.value = chosen.value; // a choice the rules do not allow, moved by the server
      }
    });
  }

  function refresh() {
    var ticket = ++latest;
    var url = choicesUrl();
    form.setAttribute("aria-busy", "true");
    fetch(url.toString(), { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (response) {
        return response.text();
      })
      .then(function (html) {
        if (ticket !== latest) {
          return; // a later change is on its way
        }
        takeParts(new DOMParser().parseFromString(html, "text/html"));
        window.history.replaceState(null, "", url.toString());
      })
      .catch(function () {
        form.classList.remove("live"); // offline: "Update preview" is back
      })
      .then(function () {
        if (ticket === latest) {
          form.removeAttribute("aria-busy");
        }
      });
  }

  form.addEventListener("change", refresh);
  form.addEventListener("input", function (event) {
    if (event.target.type === "text") {
      window.clearTimeout(typing);
      typing = window.setTimeout(refresh, 400);
    }
  });
})();
