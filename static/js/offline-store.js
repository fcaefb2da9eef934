// The deals saved on this phone while there was no network, in IndexedDB: one record per deal
// form address (/g/<token>/deals/<n>), with the form's fields as posted, the version the form
// was made from among them. Loaded by the pages and by the service worker (self is either).
(function (scope) {
  "use strict";
  var DATABASE = "scorekeeper-offline";
  var STORE = "pending-deals";
  var DEAL_PATH = /^\/g\/([^/]+)\/deals\/(\d+)$/;

  function open() {
    return new Promise(function (resolve, reject) {
      var request = scope.indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "path" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(STORE, mode);
        var request = work(transaction.objectStore(STORE));
        transaction.oncomplete = function () { db.close(); resolve(request && request.result); };
        transaction.onerror = function () { db.close(); reject(transaction.error); };
        transaction.onabort = function () { db.close(); reject(transaction.error); };
      });
    });
  }

  // A record for a deal form's fields ([name, value] pairs, as a form posts them).
  function record(path, fields) {
    var match = DEAL_PATH.exec(path);
    var version = "0";
    fields.forEach(function (pair) {
      if (pair[0] === "version") { version = pair[1]; }
    });
    return {
      path: path,
      game: "/g/" + match[1],
      number: Number(match[2]),
      version: Number(version),
      fields: fields,
      savedAt: Date.now(),
      state: "pending"
    };
  }

  scope.offlineStore = {
    dealPath: DEAL_PATH,
    keep: function (path, fields) {
      var value = record(path, fields);
      return run("readwrite", function (store) { return store.put(value); }).then(function () {
        return value;
      });
    },
    update: function (value) {
      return run("readwrite", function (store) { return store.put(value); });
    },
    get: function (path) {
      return run("readonly", function (store) { return store.get(path); });
    },
    all: function () {
      return run("readonly", function (store) { return store.getAll(); }).then(function (list) {
        return (list || []).sort(function (a, b) { return a.savedAt - b.savedAt; });
      });
    },
    remove: function (path) {
      return run("readwrite", function (store) { return store.delete(path); });
    }
  };
}(self));
