// Keeps a scoreboard current: asks the game's version every few seconds with If-None-Match
// (a 304 costs next to nothing) and reloads the page when the version changes. Pauses while
// the page is hidden and waits longer after a failure. The address's token is all the poll
// needs: it goes without cookies, so the session (which holds edit links) is not sent each time.
(function () {
  "use strict";
  var marker = document.querySelector("[data-live-poll]");
  if (!marker || !window.fetch) {
    return;
  }
  var url = marker.getAttribute("data-live-poll");
  var etag = marker.getAttribute("data-live-etag");
  var every = 5000;
  var longest = 60000;
  var delay = every;
  var timer = null;

  function later() {
    window.clearTimeout(timer);
    timer = window.setTimeout(poll, delay);
  }

  function failed() {
    delay = Math.min(delay * 2, longest);
    later();
  }

  function poll() {
    if (document.hidden) {
      return;
    }
    window.fetch(url, {
      headers: { "If-None-Match": etag },
      cache: "no-store",
      credentials: "omit"
    }).then(function (response) {
      if (response.status === 304) {
        delay = every;
        later();
      } else if (response.ok) {
        var current = response.headers.get("ETag");
        if (current && current !== etag) {
          window.location.reload();
          return;
        }
        delay = every;
        later();
      } else {
        failed();
      }
    }, failed);
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      delay = every;
      poll();
    }
  });
  later();
}());
