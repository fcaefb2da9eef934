// At the table: keeps the screen awake while a game's page is open (Screen Wake Lock, where the
// browser has it: let go when the page is hidden, asked again when it is shown), switches the
// scoreboard's totals to large type (remembered on this phone, the totals brought to the top of
// the screen), and shares the view link (the
// share sheet where there is one, else copied, with a visible confirmation).
(function () {
  "use strict";

  // --- the screen stays awake -----------------------------------------------------------------
  var lock = null;
  var asking = false;

  function keepAwake() {
    if (!navigator.wakeLock || asking || lock || document.visibilityState !== "visible") {
      return;
    }
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      if (document.visibilityState !== "visible") {
        sentinel.release();
        return;
      }
      lock = sentinel;
      sentinel.addEventListener("release", function () {
        if (lock === sentinel) {
          lock = null;
        }
      });
    }, function () {
      asking = false; // refused (battery saver, a policy): the screen just sleeps as usual
    });
  }

  function letSleep() {
    if (lock) {
      var held = lock;
      lock = null;
      held.release();
    }
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      keepAwake();
    } else {
      letSleep();
    }
  });
  keepAwake();

  // --- large type for the totals --------------------------------------------------------------
  var toggle = document.getElementById("large-totals");
  var totals = document.getElementById("totals");
  var LARGE_KEY = "scorekeeper.large-totals";

  function remembered() {
    try {
      return window.localStorage.getItem(LARGE_KEY) === "1";
    } catch (error) {
      return false;
    }
  }

  function showLarge(on) {
    totals.classList.toggle("large", on);
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    try {
      window.localStorage.setItem(LARGE_KEY, on ? "1" : "0");
    } catch (error) {
      // private mode: the choice lasts as long as the page
    }
  }

  // Large type is read from across the table: the totals are brought to the top of the
  // screen, where all of them fit, a small phone's and a phone on its side included.
  function bringTotalsUp() {
    if (totals.classList.contains("large")) {
      totals.scrollIntoView({ block: "start" });
    }
  }

  if (toggle && totals) {
    showLarge(remembered());
    bringTotalsUp();
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      showLarge(!totals.classList.contains("large"));
      bringTotalsUp();
    });
  }

  // --- sharing the view link ------------------------------------------------------------------
  var share = document.querySelector("[data-share-for]");
  if (!share) {
    return;
  }
  var field = document.getElementById(share.getAttribute("data-share-for"));
  var status = share.parentNode.querySelector(".share-status");
  var canShare = typeof navigator.share === "function";

  function say(text, ok) {
    status.textContent = text;
    status.classList.toggle("share-done", ok);
  }

  function copyBySelection() {
    field.focus();
    field.select();
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }

  // The clipboard API needs a secure page (https or localhost); a phone on the local network
  // opens the app over http, where only copying the selected field works.
  function copy() {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(field.value).then(function () {
        return true;
      }, copyBySelection);
    }
    return Promise.resolve(copyBySelection());
  }

  function copied(ok) {
    say(share.getAttribute(ok ? "data-copied" : "data-copy-failed"), ok);
  }

  if (!canShare) {
    share.textContent = share.getAttribute("data-label-copy");
  }
  share.hidden = false;
  share.addEventListener("click", function () {
    say("", false);
    if (!canShare) {
      copy().then(copied);
      return;
    }
    navigator.share({ title: share.getAttribute("data-share-title"), url: field.value })
      .catch(function (error) {
        if (error && error.name === "AbortError") {
          return; // the share sheet was closed
        }
        return copy().then(copied);
      });
  });
})();
