// Deals saved on this phone without a network: listed at the top of the page (the deal form's
// own one beside its Save button instead), and sent when the network returns, as their form
// would post them, with the version they were made from and a fresh CSRF token (read from the
// deal's form, fetched again). A deal the server saves leaves the phone, and the phone that
// typed it goes to the scoreboard, as after a save with the network ("Deal N saved"); one
// changed on another phone meanwhile (409), or one the server asks to look at (errors,
// warnings), waits for "Show deal N", which posts it as the form would, so that the server's
// own pages take it over: the conflict page, the form with its messages. While the network is
// gone a line stays on screen, and says, where no service worker keeps the pages, that this
// page must stay open until the network is back. The scoreboard a phone kept counts the deals
// kept here in its totals, marked as not sent yet (their totals worked out by their form).
(function () {
  "use strict";
  var store = window.offlineStore;
  var carrier = document.querySelector("script[data-texts]");
  var texts = JSON.parse(carrier.getAttribute("data-texts") || "{}");
  var dealsPerGame = Number(carrier.getAttribute("data-deals")) || 0;
  // The score that ends the game once a side reaches it (0: the game is played to its last
  // deal): the kept deals that reach it leave no further deal to offer.
  var target = Number(carrier.getAttribute("data-target")) || 0;
  var here = window.location.pathname;
  var box = document.createElement("div");
  box.className = "flashes offline-status";
  box.setAttribute("role", "status");
  var main = document.getElementById("content") || document.body;
  main.insertBefore(box, main.firstChild);
  var formStatus = document.getElementById("save-status");  // on a deal form, beside Save
  var worker = navigator.serviceWorker;

  function say(key, number) {
    return (texts[key] || "").replace("%s", number);
  }

  function line(text, category, child) {
    var p = document.createElement("p");
    p.className = "flash flash-" + category;
    p.textContent = text;
    if (child) {
      p.appendChild(document.createTextNode(" "));
      p.appendChild(child);
    }
    box.appendChild(p);
    return p;
  }

  function button(record) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = "secondary";
    element.textContent = say("show", record.number);
    element.addEventListener("click", function () { post(record); });
    return element;
  }

  // On a scoreboard showing deals kept here, which of them its totals count (and any they
  // cannot) and the next deal's form (the page itself is older), in a bar at the bottom of the
  // screen where a save with the network puts it; the page's own next-deal bar and Undo are
  // hidden meanwhile (css: .has-kept-deals).
  var nextBar = null;

  function showNextBar(link, counted, notCounted, over) {
    if (nextBar) {
      nextBar.remove();
      nextBar = null;
    }
    var totals = document.getElementById("totals");
    if (!totals || !(link || counted.length || notCounted.length)) {
      return;
    }
    nextBar = document.createElement("section");
    nextBar.className = "just-saved kept-next";
    var notes = [["counted", counted], ["notCounted", notCounted]];
    if (over) {
      notes.push(["over", [target]]);
    }
    notes.forEach(function (kind) {
      if (kind[1].length) {
        var note = document.createElement("p");
        note.className = "flash flash-warning";
        note.setAttribute("role", "status");
        note.textContent = say(kind[0], kind[1].join(", "));
        nextBar.appendChild(note);
      }
    });
    if (link) {
      var p = document.createElement("p");
      p.className = "next";
      link.classList.add("wide");
      p.appendChild(link);
      nextBar.appendChild(p);
    }
    totals.parentNode.insertBefore(nextBar, totals.nextSibling);
  }

  function nextDeal(records, over) {
    var numbers = records.filter(function (record) {
      return record.game === here && record.state === "pending";
    })
      .map(function (record) { return record.number; });
    var next = Math.max.apply(null, numbers) + 1;
    if (!numbers.length || next > dealsPerGame || over || !texts.enter) {
      return null;
    }
    var link = document.createElement("a");
    link.className = "button";
    link.href = here + "/deals/" + next;
    link.textContent = say("enter", next);
    return link;
  }

  // The scoreboard's totals with the deals kept on this phone counted in (their totals as
  // their form worked them out when it was saved: offline-store.js), their rows marked; the
  // page's own sentence on the leader and its chart, older, are hidden. Returns the numbers of
  // the kept deals it counted; `keptTotals` holds the totals they come to.
  var keptTotals = [];

  function countKept(records) {
    keptTotals = [];
    var section = document.getElementById("totals");
    var bigTotals = section ? section.querySelectorAll(".big-totals .big-total") : [];
    var kept = {};
    var counted = [];
    records.forEach(function (record) {
      var scores = store.keptScores(record.path);
      if (Array.isArray(scores) && scores.length === bigTotals.length) {
        kept[record.number] = scores;
        counted.push(record.number);
      }
    });
    if (!counted.length) {
      return [];
    }
    var running = Array.prototype.map.call(bigTotals, function () { return 0; });
    section.querySelectorAll("table.sheet tbody tr").forEach(function (row) {
      var number = Number(row.querySelector("th").textContent);
      var scores = kept[number] || Array.prototype.map.call(row.querySelectorAll(".delta"),
        function (delta) { return Number(delta.textContent); });
      if (!scores.length) {
        return;
      }
      row.classList.toggle("kept", Boolean(kept[number]));
      row.classList.toggle("warning", Boolean(kept[number]));
      row.querySelectorAll("td").forEach(function (cell, side) {
        running[side] += scores[side];
        cell.textContent = "";
        var delta = document.createElement("span");
        delta.className = "delta";
        delta.textContent = (scores[side] >= 0 ? "+" : "") + scores[side];
        cell.appendChild(delta);
        cell.appendChild(document.createTextNode(" " + running[side]));
      });
    });
    var best = Math.max.apply(null, running);
    bigTotals.forEach(function (element, side) {
      element.textContent = String(running[side]);
      element.parentNode.classList.toggle("lead", running[side] === best);
    });
    section.querySelectorAll("table.sheet tfoot td").forEach(function (cell, side) {
      cell.textContent = String(running[side]);
      cell.classList.toggle("lead", running[side] === best);
    });
    keptTotals = running;
    section.querySelector(".big-totals").classList.add("kept", "warning");
    section.querySelectorAll(".result, #running-chart").forEach(function (older) {
      older.hidden = true;
    });
    return counted;
  }

  // The state of this form's own kept deal, beside its Save button: kept, sending, sent,
  // refused, clash. Save is disabled while the deal waits or is being sent, until it is edited.
  function showHere(record, state) {
    if (!formStatus || !record || record.path !== here) {
      return false;
    }
    var waiting = state === "pending" || state === "sending";
    formStatus.textContent = say(state, record.number);
    formStatus.className = "save-status flash flash-" +
      (state === "sent" ? "success" : waiting ? "warning" : "error");
    if (state === "clash" || state === "check") {
      formStatus.appendChild(document.createTextNode(" "));
      formStatus.appendChild(button(record));
    }
    formStatus.hidden = false;
    formStatus.setAttribute("data-state", state);
    var save = document.querySelector("#deal-form button[name=save]");
    if (save) {
      save.disabled = waiting;
    }
    return true;
  }

  function controlled() {
    return Boolean(worker && worker.controller);
  }

  function render(records) {
    box.textContent = "";
    if (!navigator.onLine) {
      var note = line(controlled() ? texts.offline : texts.keepOpen, "warning");
      note.classList.add("network-note");
    }
    records.forEach(function (record) {
      if (showHere(record, record.state)) {
        return;
      }
      var waiting = record.state === "pending";
      var p = line(say(record.state, record.number), waiting ? "warning" : "error",
        record.state === "clash" || record.state === "check" ? button(record) : null);
      p.setAttribute("data-offline-deal", record.path);
    });
    var keptHere = records.filter(function (record) {
      return record.game === here && record.state === "pending";
    });
    var counted = countKept(keptHere);
    // Where the game ends at a target score, a side that reaches it with the kept deals ends it.
    var over = target > 0 && keptTotals.some(function (total) { return total >= target; });
    showNextBar(nextDeal(records, over), counted, keptHere.map(function (record) {
      return record.number;
    }).filter(function (number) { return counted.indexOf(number) === -1; }), over);
    box.hidden = !box.firstChild;
    document.documentElement.classList.toggle("has-kept-deals", records.some(function (record) {
      return record.game === here && record.state === "pending";
    }));
  }

  function refresh() {
    return store.all().then(function (records) {
      render(records);
      return records;
    });
  }

  function freshToken(path) {
    return window.fetch(path, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 403 || response.status === 404) {
          return {};
        }
        if (!response.ok) {
          throw new Error(response.statusText);
        }
        return response.text().then(function (html) {
          var page = new DOMParser().parseFromString(html, "text/html");
          var input = page.querySelector("input[name=csrf_token]");
          return { token: input && input.value };
        });
      });
  }

  function withToken(fields, token) {
    return fields.filter(function (pair) { return pair[0] !== "csrf_token"; })
      .concat([["csrf_token", token]]);
  }

  function settle(record, state) {
    record.state = state;
    return store.update(record).then(function () { return false; });
  }

  function send(record) {
    return freshToken(record.path).then(function (fresh) {
      if (!fresh.token) {
        return settle(record, "gone");
      }
      var body = new URLSearchParams();
      withToken(record.fields, fresh.token).forEach(function (pair) {
        body.append(pair[0], pair[1]);
      });
      return window.fetch(record.path, {
        method: "POST", body: body, credentials: "same-origin", redirect: "manual"
      })
        .then(function (response) {
          if (response.type === "opaqueredirect") {  // the 303 of a save
            return store.remove(record.path).then(function () { return true; });
          }
          return settle(record, response.status === 409 ? "clash" : "check");
        });
    });
  }

  function sendAll() {
    var sent = [];
    return store.all().then(function (records) {
      return records.filter(function (record) { return record.state === "pending"; })
        .reduce(function (previous, record) {
          return previous.then(function () {
            var p = box.querySelector("[data-offline-deal='" + record.path + "']");
            if (p) {
              p.textContent = say("sending", record.number);
            }
            showHere(record, "sending");
            return send(record).then(function (done) {
              if (done) {
                sent.push(record);
              }
            });
          });
        }, Promise.resolve());
    }).then(function () { return sent; }, function () { return sent; });
  }

  function sync() {
    if (!navigator.onLine) {
      return refresh();
    }
    var locked = navigator.locks ?
      navigator.locks.request("scorekeeper-offline-sync", sendAll) : sendAll();
    return locked.then(function (sent) {
      var ours = sent.filter(function (record) {
        return record.game === here || record.path === here;
      });
      if (ours.length) {
        // This game's scoreboard, with the deals just sent: where a save with the network ends.
        showHere(ours[ours.length - 1], "sent");
        window.location.replace(ours[0].game);
        return undefined;
      }
      return refresh().then(function () {
        sent.forEach(function (record) { line(say("sent", record.number), "success"); });
        box.hidden = !box.firstChild;
      });
    });
  }

  // Posts a kept deal as its form would: the server's page shows it. What it holds stays the
  // form's draft until the server saves it.
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
      store.writeDraft(record.path, record.fields.filter(function (pair) {
        return pair[0] !== "csrf_token" && pair[0] !== "confirm";
      }));
      store.submitting(record.path);
      store.remove(record.path).then(function () { form.submit(); });
    });
  }

  window.addEventListener("online", sync);
  window.addEventListener("offline", refresh);
  document.addEventListener("offline-deals-changed", refresh);
  sync();
}());
