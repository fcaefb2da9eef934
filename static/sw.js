// The service worker: the app on a phone without a network.
//
// Served from /sw.js (scope: the whole site) with OFFLINE_SETTINGS in front of this file: the
// files kept in advance, a version made from their contents, the fallback page.
// - Static files (CSS, JS, icons, fonts): from the cache kept for this version, else from the
//   network, then kept. A new version of the files is a new worker, which drops the old cache.
// - Pages: from the network, always, when there is one. Without a network, the copy kept of
//   the very same address, else the fallback page: never another game's page. Kept are only
//   the pages this phone opened: the list of games, the rules pages, and a game's scoreboard
//   and deal forms; and, when a page of a game opened with its edit link asks for them
//   (static/js/offline.js), that game's deal forms and its rules page.
// - A deal form posted without a network: its fields go to IndexedDB (offline-store.js) and
//   the phone is sent to the game's scoreboard, which lists it as saved on this phone, not sent
//   yet; the pages send it when the network returns, with the version it was made from.
"use strict";

var SETTINGS = self.OFFLINE_SETTINGS;
importScripts(SETTINGS.store);

var SHELL = "shell-" + SETTINGS.version;
var PAGES = "pages";
var KEPT_PAGES = [
  /^\/$/,
  /^\/rules\/[^/]+$/,
  /^\/g\/[^/]+$/,
  /^\/g\/[^/]+\/deals\/\d+$/
];

function keptPage(path) {
  return KEPT_PAGES.some(function (pattern) { return pattern.test(path); });
}

function pageKey(url) {
  var key = new URL(url);
  key.hash = "";
  return key.href;
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL).then(function (cache) {
      // Without cookies: what is kept in advance belongs to no session (no message meant for
      // a page being opened meanwhile, no form token); the fallback page is in the browser's
      // language. Revalidated: a file the page has just loaded costs a 304.
      return cache.addAll(SETTINGS.precache.map(function (url) {
        return new Request(url, { cache: "no-cache", credentials: "omit" });
      }));
    }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("shell-") === 0 && name !== SHELL;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function keepable(response) {
  return response.status === 200 && response.type === "basic" && !response.redirected;
}

function staticFile(request) {
  return caches.open(SHELL).then(function (cache) {
    return cache.match(request).then(function (kept) {
      return kept || fetch(request).then(function (response) {
        if (keepable(response)) {
          cache.put(request, response.clone());
        }
        return response;
      });
    });
  });
}

function keptCopy(url) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(pageKey(url), { ignoreVary: true });
  }).then(function (kept) {
    return kept || caches.match(SETTINGS.fallback, { cacheName: SHELL, ignoreVary: true });
  });
}

function page(request, keep) {
  return fetch(request).then(function (response) {
    if (keep && keepable(response)) {
      var copy = response.clone();
      caches.open(PAGES).then(function (cache) { return cache.put(pageKey(request.url), copy); });
    }
    return response;
  }, function () {
    return keptCopy(request.url);
  });
}

// A deal form posted while the network is gone: kept on the phone, then the game's scoreboard.
function postedDeal(request, path) {
  var copy = request.clone();
  return fetch(request).catch(function () {
    return copy.formData().then(function (form) {
      var fields = [];
      form.forEach(function (value, name) {
        if (typeof value === "string") {
          fields.push([name, value]);
        }
      });
      return self.offlineStore.keep(path, fields);
    }).then(function (record) {
      return Response.redirect(record.game + self.offlineStore.keptMark, 303);
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.method === "POST") {
    if (request.mode === "navigate" && self.offlineStore.dealPath.test(url.pathname)) {
      event.respondWith(postedDeal(request, url.pathname));
    }
    return;
  }
  if (request.method !== "GET") {
    return;
  }
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(staticFile(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request, keptPage(url.pathname)));
  }
});

// A page of a game asks to keep that game's pages: the missing ones are fetched and kept, and
// all of them again when the game changed since they were kept (its version, as the page
// shows it to the live poll). Only addresses of this site that the worker keeps anyway.
var keptAtVersion = {};

function keepPage(cache, url, again) {
  var key = pageKey(url.href);
  return (again ? Promise.resolve(undefined) : cache.match(key)).then(function (kept) {
    if (kept) {
      return undefined;
    }
    return fetch(url.href, { credentials: "same-origin" }).then(function (response) {
      return keepable(response) ? cache.put(key, response) : undefined;
    });
  }).catch(function () { return undefined; });
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (!Array.isArray(data.keep)) {
    return;
  }
  var urls = data.keep.map(function (url) { return new URL(url, self.location.href); })
    .filter(function (url) {
      return url.origin === self.location.origin && keptPage(url.pathname);
    });
  var version = typeof data.version === "string" ? data.version : null;
  var again = version !== null && keptAtVersion[data.game] !== version;
  event.waitUntil(caches.open(PAGES).then(function (cache) {
    return Promise.all(urls.map(function (url) { return keepPage(cache, url, again); }));
  }).then(function () {
    if (version !== null) {
      keptAtVersion[data.game] = version;
    }
    if (event.source) {
      event.source.postMessage({ kept: urls.length });
    }
  }));
});
