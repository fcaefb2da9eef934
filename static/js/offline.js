// The app without a network, on every page: registers the service worker (sw.js), asks it to
// keep the pages of the game shown, and loads the rest only where needed: offline-store.js,
// drafts.js on a deal form, offline-sync.js when deals wait on this phone or the network is gone
// (at once where no worker controls the page: nothing could bring it once the network is gone).
(function () {
  "use strict";
  var script = document.currentScript;
  var folder = script.src.replace(/[^/]*$/, "");
  var dealsPerGame = Number(script.getAttribute("data-deals")) || 0;
  var worker = navigator.serviceWorker;
  var GAME_PATH = /^\/g\/([^/]+)(\/deals\/\d+)?$/;
  var here = window.location.pathname;
  var loaded = {};

  function load(name) {
    loaded[name] = loaded[name] || new Promise(function (resolve, reject) {
      var element = document.createElement("script");
      element.src = folder + name;
      element.onload = resolve;
      element.onerror = reject;
      document.body.appendChild(element);
    });
    return loaded[name];
  }

  // A game's scoreboard and, with its edit link, its deal forms; the rules pages it links to;
  // and the page itself when the worker did not see it come (its first visit).
  function pagesToKeep() {
    var match = GAME_PATH.exec(here);
    var keep = worker.controller ? [] : [here];
    if (match) {
      var links = Array.prototype.map.call(document.querySelectorAll("a[href]"), function (a) {
        return new URL(a.href);
      }).filter(function (url) { return url.origin === window.location.origin; });
      var editing = match[2] || links.some(function (url) {
        var other = GAME_PATH.exec(url.pathname);
        return other && other[1] === match[1] && other[2];
      });
      keep.push("/g/" + match[1]);
      for (var number = 1; editing && number <= dealsPerGame; number += 1) {
        keep.push("/g/" + match[1] + "/deals/" + number);
      }
      links.forEach(function (url) {
        if (/^\/rules\/[^/]+$/.test(url.pathname)) {
          keep.push(url.pathname);
        }
      });
    }
    return keep.filter(function (path, index) {
      return keep.indexOf(path) === index && (path !== here || !worker.controller);
    });
  }

  function keepPages() {
    var keep = pagesToKeep();
    if (navigator.onLine && keep.length) {
      var game = GAME_PATH.exec(here);
      var live = document.querySelector("[data-live-etag]");  // the game's version, if shown
      worker.ready.then(function (registration) {
        registration.active.postMessage({
          keep: keep,
          game: game ? "/g/" + game[1] : null,
          version: live ? live.getAttribute("data-live-etag") : null
        });
      });
    }
  }

  function syncWhenNeeded() {
    return window.offlineStore.all().then(function (records) {
      if (records.length || !navigator.onLine) {
        return load("offline-sync.js");
      }
      return undefined;
    });
  }

  // Without a network a form that changes something (Undo, a deletion) is not posted: the
  // browser would show its error page. A line beside its button says so. Deal forms are kept
  // on the phone instead (drafts.js, or the worker).
  function notPostedOffline(event) {
    var form = event.target;
    var action = new URL(form.action || here, window.location.href).pathname;
    if (navigator.onLine || (form.getAttribute("method") || "").toLowerCase() !== "post" ||
        /^\/g\/[^/]+\/deals\/\d+$/.test(action)) {
      return;
    }
    event.preventDefault();
    var texts = JSON.parse(script.getAttribute("data-texts") || "{}");
    var row = form.closest(".just-saved-row") || form;  // under Undo's row, not squeezed in it
    var line = row.parentNode.querySelector(".not-posted") || document.createElement("p");
    line.className = "flash flash-warning not-posted";
    line.setAttribute("role", "status");
    line.textContent = texts.notPosted || "";
    row.parentNode.insertBefore(line, row.nextSibling);
  }
  document.addEventListener("submit", notPostedOffline);

  if (worker && script.getAttribute("data-worker")) {
    worker.register(script.getAttribute("data-worker"), { scope: "/" })
      .then(keepPages, function () {});
    worker.addEventListener("message", function (event) {
      if (event.data && typeof event.data.kept === "number") {
        document.documentElement.setAttribute("data-pages-kept", String(event.data.kept));
      }
    });
  }
  load("offline-store.js").then(function () {
    window.offlineStore.afterSubmit();
    if (/^\/g\/[^/]+\/deals\/\d+$/.test(here)) {
      load("drafts.js");
    }
    if (!(worker && worker.controller)) {
      load("offline-sync.js");  // no worker to bring it once the network is gone
    }
    window.addEventListener("offline", function () { load("offline-sync.js"); });
    document.addEventListener("offline-deals-changed", function () { load("offline-sync.js"); });
    return syncWhenNeeded();
  });
}());
