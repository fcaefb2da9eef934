// What this phone keeps of deal forms: in IndexedDB, the deals saved without a network, one
// record per form address (/g/<token>/deals/<n>) with its fields as posted (the version they
// were made from among them); in localStorage, the drafts of forms being typed, and the totals
// of the deals kept. Loaded by the pages and by the service worker (self is either).
(function (scope) {
  "use strict";
  var DEAL_PATH = /^\/g\/([^/]+)\/deals\/(\d+)$/;
  var DRAFT = "draft:";
  var SUBMITTED = "draft-submitted";
  var KEPT_MARK = "#kept-on-this-phone";  // where the worker sends a deal posted offline
  var SCORES = "kept-scores:";

  function run(mode, work) {
    return new Promise(function (resolve, reject) {
      var opening = scope.indexedDB.open("scorekeeper-offline", 1);
      opening.onupgradeneeded = function () {
        opening.result.createObjectStore("pending-deals", { keyPath: "path" });
      };
      opening.onerror = function () { reject(opening.error); };
      opening.onsuccess = function () {
        var db = opening.result;
        var transaction = db.transaction("pending-deals", mode);
        var request = work(transaction.objectStore("pending-deals"));
        transaction.oncomplete = function () { db.close(); resolve(request.result); };
        transaction.onerror = transaction.onabort = function () {
          db.close();
          reject(transaction.error);
        };
      };
    });
  }

  function put(record) {
    return run("readwrite", function (store) { return store.put(record); }).then(function () {
      return record;
    });
  }

  function local(kind) {
    try {
      return scope[kind] || null;
    } catch (error) {
      return null;  // storage refused: drafts are not kept, the forms still work
    }
  }

  function wholeNumber(text) {
    var value = (text || "").trim();
    return value === "" ? 0 : /^\d+$/.test(value) ? Number(value) : null;
  }

  // Each side's total for a deal form's fields (pairs as posted), priced as the server scores
  // them: the form's data-kept-prices (games/kept_totals.py) gives a side's base and the
  // points of one of each field, having gone out ("out") or not ("in"), and the card
  // counter's points for an empty points field. Null when a field holds no whole number.
  function scoreFields(pairs, prices, sides) {
    var fields = {};
    pairs.forEach(function (pair) { fields[pair[0]] = pair[1]; });
    var scores = [];
    for (var side = 0; side < sides; side += 1) {
      var out = fields.went_out === String(side);
      var list = prices[out ? "out" : "in"];
      var prefix = "sides-" + side + "-";
      var total = list.base;
      var names = Object.keys(list.prices);
      for (var index = 0; index < names.length; index += 1) {
        var name = names[index];
        var counters = prices.counters[name];
        var count = name === "went_out_concealed" ? Number(out && name in fields) :
          wholeNumber(fields[prefix + name]);
        if (counters && (fields[prefix + name] || "").trim() === "") {
          count = Object.keys(counters).reduce(function (sum, counter) {
            var cards = wholeNumber(fields[prefix + counter]);
            return sum === null || cards === null ? null : sum + cards * counters[counter];
          }, 0);
        }
        if (count === null) {
          return null;
        }
        total += count * list.prices[name];
      }
      scores.push(total);
    }
    return scores;
  }

  scope.offlineStore = {
    dealPath: DEAL_PATH,
    keptMark: KEPT_MARK,
    keep: function (path, fields) {
      var match = DEAL_PATH.exec(path);
      var version = fields.filter(function (pair) { return pair[0] === "version"; })[0];
      return put({
        path: path, game: "/g/" + match[1], number: Number(match[2]),
        version: Number(version ? version[1] : 0), fields: fields,
        savedAt: Date.now(), state: "pending"
      });
    },
    update: put,
    get: function (path) {
      return run("readonly", function (store) { return store.get(path); });
    },
    all: function () {
      return run("readonly", function (store) { return store.getAll(); }).then(function (list) {
        return list.sort(function (a, b) { return a.savedAt - b.savedAt; });
      });
    },
    remove: function (path) {
      var storage = local("localStorage");
      if (storage) {
        storage.removeItem(SCORES + path);
      }
      return run("readwrite", function (store) { return store.delete(path); });
    },
    // The totals of a deal kept on the phone, worked out by its form as it was saved, for the
    // scoreboard kept here to count it (offline-sync.js).
    keepScores: function (path, pairs, prices, sides) {
      var scores = prices ? scoreFields(pairs, prices, sides) : null;
      try {
        if (scores) {
          local("localStorage").setItem(SCORES + path, JSON.stringify(scores));
        } else {
          local("localStorage").removeItem(SCORES + path);
        }
      } catch (error) { /* full or refused: the scoreboard says it cannot count the deal */ }
    },
    keptScores: function (path) {
      try {
        return JSON.parse(local("localStorage").getItem(SCORES + path));
      } catch (error) {
        return null;
      }
    },
    draft: function (path) {
      try {
        return JSON.parse(local("localStorage").getItem(DRAFT + path));
      } catch (error) {
        return null;
      }
    },
    writeDraft: function (path, fields) {
      try {
        local("localStorage").setItem(DRAFT + path, JSON.stringify({ fields: fields }));
      } catch (error) { /* full or refused */ }
    },
    forgetDraft: function (path) {
      var storage = local("localStorage");
      if (storage) {
        storage.removeItem(DRAFT + path);
      }
    },
    submitting: function (path) {
      var storage = local("sessionStorage");
      if (storage) {
        storage.setItem(SUBMITTED, path);
      }
    },
    // The first page after a deal form was posted: another address means the deal was saved
    // (or kept by the worker, which marks its address), so its draft goes; and a copy kept on
    // the phone before goes too once the server saved the deal.
    afterSubmit: function () {
      var storage = local("sessionStorage");
      var path = storage && storage.getItem(SUBMITTED);
      if (!path) {
        return;
      }
      storage.removeItem(SUBMITTED);
      if (path !== scope.location.pathname) {
        this.forgetDraft(path);
        if (scope.location.hash !== KEPT_MARK) {
          this.remove(path);
        }
      }
    }
  };
}(self));
