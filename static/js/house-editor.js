/* The house-rules form on a phone: "Your changes" follows the form as it is edited (the server
   words the summary, from the rules core, as on the saved rules' page), a rule is found by
   typing a few words of its name, help or base value, the number of deals shows or hides each
   deal's rules, a row of running score and first meld appears as the last one is filled, and a
   special book's rank is chosen among the chosen deck's ranks.
   Without this file the summary and the deals follow on saving, and every group opens by hand. */
(function () {
  "use strict";

  var form = document.querySelector("form[data-changes-url]");
  if (!form) {
    return;
  }

  // --- "Your changes", kept up to date ---------------------------------------------------
  var latest = 0;
  var waiting = 0;

  function refreshSummary() {
    var ticket = ++latest;
    fetch(form.dataset.changesUrl, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { Accept: "text/html" },
    })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        var summary = document.getElementById("house-summary");
        if (html === null || ticket !== latest || !summary) {
          return;
        }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var replacement = fresh.getElementById("house-summary");
        if (replacement) {
          summary.replaceWith(document.importNode(replacement, true));
        }
      })
      .catch(function () {
        /* offline: the summary follows on saving */
      });
  }

  function summaryLater(event) {
    if (event.target.id === "rule-finder") {
      return;
    }
    window.clearTimeout(waiting);
    waiting = window.setTimeout(refreshSummary, 250);
  }

  if (window.fetch && window.DOMParser && window.FormData) {
    form.addEventListener("input", summaryLater);
    form.addEventListener("change", summaryLater);
  }

  // --- the deals of the game --------------------------------------------------------------
  var dealsInput = form.querySelector("[data-deals-input]");

  function gameDeals() {
    var typed = dealsInput ? Number(dealsInput.value) : NaN;
    var most = Number(form.dataset.maxDeals || 8);
    if (Number.isInteger(typed) && typed >= 1 && typed <= most) {
      return typed;
    }
    return Number(form.dataset.deals || most);
  }

  function pastLastDeal(element) {
    return Number(element.dataset.deal || 0) > gameDeals();
  }

  // --- rows of running scores and first melds ---------------------------------------------
  form.querySelectorAll(".score-rows").forEach(function (rows) {
    rows.addEventListener("input", function () {
      var all = rows.querySelectorAll(".score-row");
      var shown = Array.prototype.filter.call(all, function (row) {
        return !row.hidden;
      });
      var last = shown[shown.length - 1];
      var filled = last && Array.prototype.some.call(last.querySelectorAll("input"), function (input) {
        return input.value.trim() !== "";
      });
      if (filled && shown.length < all.length) {
        all[shown.length].hidden = false;
      }
    });
  });

  // --- finding a rule by typing ----------------------------------------------------------
  var finder = document.getElementById("rule-finder");
  var status = document.getElementById("rule-finder-status");
  var groups = Array.prototype.slice.call(form.querySelectorAll(".house-others .house-group"));
  var words = [];

  function fold(text) {
    return text.toLocaleLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  groups.forEach(function (group) {
    group.querySelectorAll(".house-param").forEach(function (param) {
      var texts = param.querySelectorAll("label, legend, .base-value, .hint");
      param.dataset.words = fold(
        Array.prototype.map
          .call(texts, function (text) {
            return text.textContent;
          })
          .join(" ")
      );
    });
  });

  /* Each rule shows when its deal is one the game has and it matches the words typed. */
  function show() {
    form.querySelectorAll(".house-param[data-deal], .choice[data-deal]").forEach(function (element) {
      element.hidden = pastLastDeal(element);
    });
    var found = 0;
    groups.forEach(function (group) {
      var inGroup = 0;
      group.querySelectorAll(".house-param").forEach(function (param) {
        var match = words.every(function (word) {
          return param.dataset.words.indexOf(word) !== -1;
        });
        param.hidden = pastLastDeal(param) || (words.length > 0 && !match);
        if (!param.hidden) {
          inGroup += 1;
        }
      });
      var count = group.querySelector("summary .muted");
      if (count) {
        count.textContent = "(" + inGroup + ")";
      }
      found += words.length > 0 ? inGroup : 0;
      group.hidden = inGroup === 0;
      if (words.length > 0) {
        group.open = inGroup > 0;
      }
    });
    if (!status) {
      return;
    }
    if (!words.length) {
      status.textContent = "";
    } else if (found === 0) {
      status.textContent = status.dataset.none.replace("%s", finder.value.trim());
    } else {
      status.textContent = status.dataset.some.replace("%s", String(found));
    }
  }

  if (dealsInput) {
    dealsInput.addEventListener("input", show);
  }

  // A value that sets every deal (the going-out bonus) carries along the deals that had it;
  // a deal given a value of its own keeps it.
  form.querySelectorAll("input[data-every-deal]").forEach(function (every) {
    var before = every.value;
    every.addEventListener("input", function () {
      form.querySelectorAll('input[name^="' + every.name + '__"]').forEach(function (deal) {
        if (deal.value === before) {
          deal.value = every.value;
        }
      });
      before = every.value;
    });
  });
  // --- a special book's rank: only the ranks of the chosen deck ---------------------------
  function offerRanks(select, deck) {
    var ranks = JSON.parse(select.dataset.ranksByDeck)[deck.value];
    if (!ranks) {
      return;
    }
    var kept = select.value;
    select.textContent = "";
    ranks.forEach(function (rank) {
      select.appendChild(new Option(rank[1], rank[0], false, rank[0] === kept));
    });
    if (select.value !== kept) {
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  form.querySelectorAll("select[data-ranks-by-deck]").forEach(function (select) {
    var deck = document.getElementById(select.dataset.deckField);
    if (deck) {
      deck.addEventListener("change", function () {
        offerRanks(select, deck);
      });
    }
  });

  if (!finder || !status) {
    return;
  }
  finder.closest(".rule-finder").hidden = false;

  finder.addEventListener("input", function () {
    words = fold(finder.value).split(/\s+/).filter(Boolean);
    show();
  });
  finder.addEventListener("keydown", function (event) {
    if (event.key === "Enter") {
      event.preventDefault(); // Enter finds; it does not save the rules
    }
  });
})();
