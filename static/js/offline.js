// The app without a network, on the page's side: registers the service worker (sw.js), asks
// it to keep the pages of a game opened with its edit link, lists the deals saved on this
// phone and not sent yet, and sends them when the network returns.
//
// A deal is sent as its form would post it, with the version it was made from and a fresh
// CSRF token (read from the deal's form, fetched again). A deal the server saves is dropped
// from the phone; one changed on another phone meanwhile (409) or one the server asks to look
// at (errors, warnings) waits for a tap on "Show deal N", which posts it as the form would, so
// that the server's own pages (the conflict page, the form with its messages) take it over.
(function () {
  "use strict";
  var script = document.currentScript;
  var texts = JSON.parse(script.getAttribute("data-texts") || "{}");
  var dealsPerGame = Number(script.getAttribute("data-deals")) || 0;
  var workerUrl = script.getAttribute("data-worker");
  var store = window.offlineStore;
  var GAME_PATH = /^\/g\/([^/]+)(\/deals\/(\d+))?$/;
  var box = null;

  function say(key, number) {
    return (texts[key] || "").replace("%s", number);
  }

  function statusBox() {
    if (!box) {
      box = document.createElement("div");
      box.className = "flashes offline-status";
      box.setAttribute("role", "status");
      var main = document.getElementById("content") || document.body;
      main.insertBefore(box, main.firstChild);
    }
    return box;
  }

  function line(text, category) {
    var p = document.createElement("p");
    p.className = "flash flash-" + category;
    p.textContent = text;
    return p;
  }

  function showButton(record) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.textContent = say("show", record.number);
    button.addEventListener("click", function () { post(record); });
    return button;
  }

  function nextDealLink(records) {
    var here = GAME_PATH.exec(window.location.pathname);
    if (!here || here[2]) {
      return null;
    }
    var mine = records.filter(function (record) { return record.game === window.location.pathname; });
    if (!mine.length) {
      return null;
    }
    var next = Math.max.apply(null, mine.map(function (record) { return record.number; })) + 1;
    if (next > dealsPerGame) {
      return null;
    }
    var link = document.createElement("a");
    link.className = "button";
    link.href = window.location.pathname + "/deals/" + next;
    link.textContent = say("enter", next);
    return link;
  }

  function render(records) {
    var area = statusBox();
    area.textContent = "";
    if (!navigator.onLine) {
      area.appendChild(line(texts.offline, "warning"));
    }
    records.forEach(function (record) {
      var state = record.state in texts ? record.state : "pending";
      var p = line(say(state, record.number), state === "pending" ? "warning" : "error");
      p.setAttribute("data-offline-deal", record.path);
      if (state === "clash" || state === "check") {
        p.appendChild(document.createTextNode(" "));
        p.appendChild(showButton(record));
      }
      area.appendChild(p);
    });
    var next = nextDealLink(records);
    if (next) {
      var p = line("", "warning");
      p.appendChild(next);
      area.appendChild(p);
    }
    area.hidden = !area.firstChild;
  }

  function refresh() {
    if (!store) {
      return Promise.resolve([]);
    }
    return store.all().then(function (records) {
      render(records);
      return records;
    }, function () { return []; });
  }

  function freshToken(path) {
    return window.fetch(path, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 403 || response.status === 404) {
          return { gone: true };
        }
        if (!response.ok) {
          throw new Error("not now");
        }
        return response.text().then(function (html) {
          var page = new DOMParser().parseFromString(html, "text/html");
          var input = page.querySelector("input[name=csrf_token]");
          return { token: input ? input.value : null };
        });
      });
  }

  function withToken(fields, token) {
    return fields.filter(function (pair) { return pair[0] !== "csrf_token"; })
      .concat([["csrf_token", token]]);
  }

  function send(record) {
    return freshToken(record.path).then(function (fresh) {
      if (fresh.gone || !fresh.token) {
        record.state = "gone";
        return store.update(record).then(function () { return false; });
      }
      var body = new URLSearchParams();
      withToken(record.fields, fresh.token).forEach(function (pair) {
        body.append(pair[0], pair[1]);
      });
      return window.fetch(record.path, {
        method: "POST",
        body: body,
        credentials: "same-origin"
      }).then(function (response) {
        if (response.ok && response.redirected) {
          return store.remove(record.path).then(function () { return true; });
        }
        record.state = response.status === 409 ? "clash" : "check";
        return store.update(record).then(function () { return false; });
      });
    });
  }

  function sendAll() {
    return store.all().then(function (records) {
      var waiting = records.filter(function (record) { return record.state === "pending"; });
      var sent = [];
      return waiting.reduce(function (previous, record) {
        return previous.then(function () {
          var p = document.querySelector("[data-offline-deal='" + record.path + "']");
          if (p) {
            p.textContent = say("sending", record.number);
          }
          return send(record).then(function (done) {
            if (done) {
              sent.push(record);
            }
          });
        });
      }, Promise.resolve()).then(function () { return sent; });
    });
  }

  function sync() {
    if (!store || !navigator.onLine) {
      return Promise.resolve();
    }
    var run = function () { return sendAll(); };
    var locked = navigator.locks ?
      navigator.locks.request("scorekeeper-offline-sync", run) : run();
    return locked.then(function (sent) {
      var here = window.location.pathname;
      if (sent.some(function (record) { return record.game === here; })) {
        window.location.replace(here);  // this game's scoreboard, with the deals just sent
        return;
      }
      refresh().then(function () {
        sent.forEach(function (record) {
          statusBox().appendChild(line(say("sent", record.number), "success"));
        });
        statusBox().hidden = !statusBox().firstChild;
      });
    }, function () { refresh(); });
  }

  // Posts a deal kept on the phone as its form would, so that the server's page shows it: the
  // conflict page for a clash, the form with its messages for errors or warnings. What it
  // holds stays as the form's draft until the server saves it.
  function post(record) {
    freshToken(record.path).then(function (fresh) {
      if (!fresh.token) {
        return;
      }
      var form = document.createElement("form");
      form.method = "post";
      form.action = record.path;
      form.hidden = true;
      withToken(record.fields, fresh.token).forEach(function (pair) {
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = pair[0];
        input.value = pair[1];
        form.appendChild(input);
      });
      document.body.appendChild(form);
      var kept = record.fields.filter(function (pair) {
        return pair[0] !== "csrf_token" && pair[0] !== "confirm";
      });
      try {
        window.localStorage.setItem("draft:" + record.path,
          JSON.stringify({ fields: kept, at: Date.now() }));
        window.sessionStorage.setItem("draft-submitted", record.path);
      } catch (error) { /* the conflict page still carries the deal */ }
      store.remove(record.path).then(function () { form.submit(); });
    });
  }

  // A game's pages: its scoreboard, and with its edit link its deal forms; the rules pages
  // it links to. A page opened before the worker took over the phone was not kept on its way.
  function pagesToKeep() {
    var here = GAME_PATH.exec(window.location.pathname);
    var keep = navigator.serviceWorker.controller ? [] : [window.location.pathname];
    if (!here) {
      return keep;
    }
    var game = "/g/" + here[1];
    var links = Array.prototype.map.call(document.querySelectorAll("a[href]"), function (link) {
      return new URL(link.href);
    }).filter(function (url) { return url.origin === window.location.origin; });
    var editing = here[2] || links.some(function (url) {
      var match = GAME_PATH.exec(url.pathname);
      return match && match[1] === here[1] && match[2];
    });
    keep.push(game);
    for (var number = 1; editing && number <= dealsPerGame; number += 1) {
      keep.push(game + "/deals/" + number);
    }
    links.forEach(function (url) {
      if (/^\/rules\/[^/]+$/.test(url.pathname)) {
        keep.push(url.pathname);
      }
    });
    return keep.filter(function (path, index) {
      return keep.indexOf(path) === index &&
        (path !== window.location.pathname || !navigator.serviceWorker.controller);
    });
  }

  function keepPages() {
    var keep = pagesToKeep();
    if (!navigator.onLine || !keep.length) {
      return;
    }
    navigator.serviceWorker.ready.then(function (registration) {
      registration.active.postMessage({ keep: keep });
    });
  }

  if (navigator.serviceWorker && workerUrl) {
    navigator.serviceWorker.register(workerUrl, { scope: "/" }).then(keepPages, function () {});
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && typeof event.data.kept === "number") {
        document.documentElement.setAttribute("data-pages-kept", String(event.data.kept));
      }
    });
  }
  window.addEventListener("online", sync);
  window.addEventListener("offline", refresh);
  document.addEventListener("offline-deals-changed", refresh);
  refresh().then(sync);
}());
