// The drawn Diamonds table (web/templates/web/games/diamonds_table.html): playing by tapping, by keyboard and by
// screen reader, and the moves animated and read out as they arrive.
//
// - The hand: a tap lifts a card, a second tap (or a swipe up) plays it; arrows choose a card (one tab stop, a
//   roving tabindex), Enter plays it. Cards that may not be played stay reachable and say why. Without this
//   script every card is a plain submit button, and the page works as a form.
// - Each redraw (match.js: a pushed or polled table) carries the table's recent steps (#table-steps, built from
//   the reader's own view: web/games/diamonds_steps.py). The steps after the ones the page showed are read out in
//   the live region (#announce) and animated: a played card moves to its place in the middle, a trick to its
//   winner, passed cards to their receiver, a Suit Action's crystal from the supply or a showroom into a showroom
//   or a vault. Each movement is short (MOVE_MS), any key or tap finishes them, a remembered "Skip animations"
//   turns them off, and so does prefers-reduced-motion. The table itself is already the new one: what moves is a
//   copy drawn above it.
// - The replay (replay.js) tells which step it shows ("replay:shown"); each frame carries the steps that led to it
//   from the frame before (web/games/diamonds_replay.py). A step reached by one step forward (Next, the arrow key,
//   autoplay) moves them the same way and reads them out; a jump (the scrubber, First, Last, back) just shows the
//   step and reads it out. Moving never holds up stepping: the next step finishes what still moves.
(function () {
  "use strict";
  var root = document.getElementById("table") || document.getElementById("frames");
  if (!root) return;
  var replaying = root.id === "frames";
  var scope = root; // where the movement looks for seats, spots and cards: the live table, or the frame shown
  var tools = document.querySelector("[data-table-tools]");
  var skipBox = document.getElementById("skip-animations");
  var SKIP_KEY = "diamonds.skipAnimations";
  var MOVE_MS = 320; // each movement: at most 400 ms
  var BURST_MS = 1200; // a burst of steps (a trick and the bots after it) moves in about this long in all
  var MIN_MS = 160; // but no movement is quicker than this, except to fit an autoplaying replay's steps
  var MAX_ANIMATED = 8; // of a burst of steps, the last ones move; the earlier ones are just read out
  var pace = MOVE_MS; // this burst's time per movement
  var SVG = "http://www.w3.org/2000/svg";
  var reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
  var running = []; // the animations under way
  var burst = 0; // counts the bursts of movement: finishing one stops its chain from starting its next movements
  var lifted = null; // the code of the card lifted in the hand
  var before = null; // what the old table showed, kept at "table:beforeswap"
  var swipe = null;

  function view() { return scope.querySelector(".table-view"); }
  function viewer() { // the seat whose table this is (null: a spectator's)
    var v = view(), seat = v && v.getAttribute("data-viewer");
    return seat === "" || seat === null ? null : Number(seat);
  }
  function words(name) { return (tools && tools.getAttribute("data-" + name)) || ""; }
  function announce(text) {
    var live = document.getElementById("announce");
    if (live) live.textContent = text;
  }

  // ---- skipping animations
  function skipping() {
    return reduced.matches || (skipBox && skipBox.checked);
  }
  if (tools) {
    tools.hidden = false;
    try { skipBox.checked = window.localStorage.getItem(SKIP_KEY) === "1"; } catch (e) { /* not remembered */ }
    skipBox.addEventListener("change", function () {
      try { window.localStorage.setItem(SKIP_KEY, skipBox.checked ? "1" : "0"); } catch (e) { /* not kept */ }
      if (skipBox.checked) finishAll();
    });
  }

  // ---- the hand
  function fan() { return scope.querySelector("[data-fan]"); }
  function cards() { var f = fan(); return f ? Array.prototype.slice.call(f.querySelectorAll(".handcard")) : []; }
  function playing() { var f = fan(); return !!(f && f.classList.contains("playing")); }
  function codeOf(card) {
    var input = card.querySelector("input");
    return input ? input.value : card.value;
  }
  function control(card) { return card.querySelector("input") || card; }
  function usable(card) {
    var c = control(card);
    return !c.disabled && c.getAttribute("aria-disabled") !== "true";
  }

  // Cards that may not be played stay focusable (aria-disabled), so that arrows reach them and they say why.
  function prepareHand() {
    var list = cards();
    list.forEach(function (card) {
      if (card.tagName === "BUTTON" && card.disabled) {
        card.disabled = false;
        card.setAttribute("aria-disabled", "true");
      }
    });
    if (lifted) {
      var again = list.filter(function (c) { return codeOf(c) === lifted && usable(c); })[0];
      lifted = null;
      if (again) lift(again, false);
    }
    roving(list.filter(function (c) { return c.classList.contains("lifted"); })[0] ||
           list.filter(usable)[0] || list[0]);
  }

  // One tab stop in the hand: `current`, or the first card that can take the focus (a box left unticked once
  // enough are chosen to pass is disabled).
  function roving(current) {
    var list = cards();
    if (!current || control(current).disabled) {
      current = list.filter(function (c) { return !control(c).disabled; })[0];
    }
    list.forEach(function (card) { control(card).tabIndex = card === current ? 0 : -1; });
  }

  function lift(card, speak) {
    cards().forEach(function (c) { c.classList.toggle("lifted", c === card); });
    lifted = card ? codeOf(card) : null;
    if (card && speak) announce(words("lifted").replace("{card}", card.getAttribute("data-label") || ""));
  }

  function playCard(card) {
    var form = card.form || card.closest("form");
    if (!form || !usable(card)) return;
    lifted = null;
    if (form.requestSubmit) form.requestSubmit(card);
    else card.click();
  }

  function refuse(card) {
    announce(words("cannot").replace("{card}", card.getAttribute("data-label") || "")
      .replace("{reason}", card.getAttribute("title") || ""));
  }

  root.addEventListener("click", function (e) {
    var card = e.target.closest && e.target.closest("button.handcard");
    var swiped = swipe && swipe.played;
    swipe = null;
    if (!card) return;
    finishAll();
    if (swiped) { e.preventDefault(); return; } // the swipe played it already
    if (!usable(card)) { e.preventDefault(); refuse(card); return; }
    if (!playing()) return;
    // A keyboard's Enter or Space (a click with no pointer) plays at once; a tap lifts, and a tap on the lifted
    // card plays it.
    if (e.detail === 0 || card.classList.contains("lifted")) return; // the form is submitted (match.js)
    e.preventDefault();
    lift(card, true);
    roving(card);
  }, true);

  root.addEventListener("pointerdown", function (e) {
    finishAll();
    var card = e.target.closest && e.target.closest("button.handcard");
    swipe = card && playing() && usable(card) ? { card: card, x: e.clientX, y: e.clientY, played: false } : null;
    if (swipe && card.setPointerCapture) {
      try { card.setPointerCapture(e.pointerId); } catch (x) { /* the tap still works */ }
    }
  });
  root.addEventListener("pointerup", function (e) {
    if (!swipe) return;
    var dy = swipe.y - e.clientY, dx = Math.abs(e.clientX - swipe.x);
    if (dy > 30 && dx < dy) { swipe.played = true; playCard(swipe.card); }
    else swipe = null;
  });

  root.addEventListener("keydown", function (e) {
    var card = e.target.closest && e.target.closest(".handcard");
    if (!card || e.altKey || e.ctrlKey || e.metaKey) return;
    var list = cards().filter(function (c) { return c === card || !control(c).disabled; });
    var i = list.indexOf(card);
    var next = null;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") next = list[Math.min(list.length - 1, i + 1)];
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = list[Math.max(0, i - 1)];
    else if (e.key === "Home") next = list[0];
    else if (e.key === "End") next = list[list.length - 1];
    else if (e.key === "Enter" && card.tagName === "LABEL") { // passing: Enter chooses, as Space does
      e.preventDefault();
      control(card).click();
      return;
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (usable(card) && playing()) playCard(card); else refuse(card);
      return;
    }
    if (!next) return;
    e.preventDefault();
    roving(next);
    control(next).focus();
    if (playing()) lift(next, false);
  });

  // ---- what happened: read out and animated
  function stepsOf(v) { // a live table's #table-steps, or a replay frame's own
    var data = v && v.querySelector('#table-steps, script[type="application/json"]');
    if (!data) return [];
    try { return JSON.parse(data.textContent) || []; } catch (e) { return []; }
  }

  function rect(el) { return el ? el.getBoundingClientRect() : null; }
  function q(selector) { return scope.querySelector(selector); }
  function handOf(seat) { return q('[data-hand="' + seat + '"]') || q('.dseat[data-seat="' + seat + '"]'); }

  function drawing(href, className) {
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", className);
    svg.setAttribute("viewBox", href === "gem" ? "0 0 20 20" : "0 0 60 84");
    svg.setAttribute("aria-hidden", "true");
    var use = document.createElementNS(SVG, "use");
    use.setAttribute("href", "#" + href);
    svg.appendChild(use);
    return svg;
  }
  function cardId(code) { return code ? "card-" + code.charAt(0).toLowerCase() + Number(code.slice(1)) : "card-back"; }

  // One thing moving from one box to another (both screen rectangles), drawn above the table; `hidden`, the new
  // table's own element at the destination, shows once it has landed.
  function fly(href, from, to, options) {
    options = options || {};
    if (!from || !to || !to.width || !from.width) {
      if (options.hidden) options.hidden.classList.remove("hide-until-landed");
      return null;
    }
    var ghost = document.createElement("div");
    ghost.className = "flying";
    ghost.style.left = to.left + "px";
    ghost.style.top = to.top + "px";
    ghost.style.width = to.width + "px";
    ghost.style.height = to.height + "px";
    ghost.appendChild(drawing(href, href === "gem" ? "gem" : "cardsvg"));
    document.body.appendChild(ghost);
    var hidden = options.hidden;
    if (hidden) hidden.classList.add("hide-until-landed");
    var sx = from.width / to.width, sy = from.height / to.height;
    var animation = ghost.animate([
      { transform: "translate(" + (from.left - to.left) + "px," + (from.top - to.top) + "px) scale(" + sx + "," + sy + ")",
        opacity: 1, transformOrigin: "0 0" },
      { transform: "none", opacity: options.fade ? 0.1 : 1, transformOrigin: "0 0" }
    ], { duration: pace, easing: "cubic-bezier(.2,.7,.3,1)", delay: options.delay || 0, fill: "backwards" });
    var entry = { animation: animation, ghost: ghost, hidden: hidden };
    running.push(entry);
    function done() {
      ghost.remove();
      if (hidden) hidden.classList.remove("hide-until-landed");
      running = running.filter(function (r) { return r !== entry; });
    }
    animation.onfinish = done;
    animation.oncancel = done;
    return animation.finished.catch(function () { /* cancelled: finished anyway */ });
  }

  // A small box inside `r`, for a crystal or a card that lands in a seat's showroom, vault or hand.
  function inside(r, w, h) {
    if (!r) return null;
    return { left: r.left + (r.width - w) / 2, top: r.top + (r.height - h) / 2, width: w, height: h };
  }
  function cardBox(r, scale) {
    var played = q(".spot");
    var w = played ? rect(played).width * (scale || 1) : 40;
    return inside(r, w, w * 1.4);
  }

  function finishAll() {
    burst++;
    running.slice().forEach(function (r) { try { r.animation.finish(); } catch (e) { r.animation.cancel(); } });
    running = [];
    Array.prototype.forEach.call(document.querySelectorAll(".flying"), function (g) { g.remove(); });
    Array.prototype.forEach.call(document.querySelectorAll(".hide-until-landed"), function (el) {
      el.classList.remove("hide-until-landed");
    });
  }

  var MOVES = {
    play: function (step, old) {
      var target = q('.played[data-card="' + step.card + '"]');
      var to = target ? rect(target) : rect(q('.spot[data-spot="' + step.seat + '"]'));
      var from = step.seat === viewer() && old.hand[step.card] ? old.hand[step.card] : cardBox(rect(handOf(step.seat)));
      return [fly(cardId(step.card), from, to, { hidden: target })];
    },
    trick: function (step) {
      var seat = q('.dseat[data-seat="' + step.seat + '"]');
      if (seat) {
        seat.classList.add("won-flash");
        setTimeout(function () { seat.classList.remove("won-flash"); }, 2 * pace);
      }
      return step.cards.map(function (code, i) {
        var shown = q('.played[data-card="' + code + '"]');
        var spot = rect(q('.spot[data-spot="' + step.from[i] + '"]'));
        // Still on the table: the cards gather by their winner; else they go into the winner's seat.
        return shown ? fly(cardId(code), spot, rect(shown), { hidden: shown }) :
          fly(cardId(code), spot, cardBox(rect(seat), 0.6), { fade: true });
      });
    },
    pass: function (step, old) {
      var me = viewer(), moving = [];
      step.moves.forEach(function (move) {
        var from = move[0], to = move[1];
        if (from === me && step.gave) {
          step.gave.forEach(function (code, i) {
            moving.push(fly(cardId(code), old.hand[code], cardBox(rect(handOf(to))), { delay: i * 40, fade: true }));
          });
        } else if (to === me && step.got) {
          step.got.forEach(function (code, i) {
            var card = cards().filter(function (c) { return codeOf(c) === code; })[0];
            moving.push(fly(cardId(code), cardBox(rect(handOf(from))), rect(card), { hidden: card, delay: i * 40 }));
          });
        } else {
          for (var i = 0; i < Math.min(step.count, 3); i++) {
            moving.push(fly(null, cardBox(rect(handOf(from)), 0.6), cardBox(rect(handOf(to)), 0.6),
                            { delay: i * 40, fade: true }));
          }
        }
      });
      return moving;
    },
    action: function (step) {
      if (!step.moved || !step.source) return [];
      var from = step.source === "supply" ? q("[data-supply] .pics") :
        q('[data-showroom="' + (step.suit === "C" ? step.target : step.seat) + '"] .pics');
      var to = q((step.destination === "vault" ? "[data-vault=\"" : "[data-showroom=\"") + step.seat + '"] .pics');
      var size = 18;
      return [fly("gem", inside(rect(from), size, size), inside(rect(to), size, size))];
    }
  };
  // The new table's cards that a movement of the burst brings in stay hidden until it lands.
  function arriving(steps) {
    var me = viewer();
    steps.forEach(function (step) {
      var codes = step.kind === "play" ? [step.card] : step.kind === "pass" && step.got ? step.got : [];
      codes.forEach(function (code) {
        var el = step.kind === "play" ? q('.played[data-card="' + code + '"]') :
          cards().filter(function (c) { return codeOf(c) === code && me !== null; })[0];
        if (el) el.classList.add("hide-until-landed");
      });
    });
  }

  // `budget`: the time the whole burst may take (BURST_MS, or less to fit an autoplaying replay's step).
  function animate(steps, old, budget) {
    var chain = Promise.resolve();
    var mine = burst;
    budget = budget || BURST_MS;
    pace = Math.max(budget < BURST_MS ? 60 : MIN_MS, Math.min(MOVE_MS, Math.floor(budget / steps.length)));
    arriving(steps);
    steps.forEach(function (step) {
      var move = MOVES[step.kind];
      if (!move) return;
      chain = chain.then(function () {
        if (skipping() || mine !== burst) return null;
        var moving = move(step, old).filter(function (m) { return m; });
        return Promise.all(moving);
      });
    });
    chain.catch(function () { /* a movement that failed: the table is right anyway */ }).then(function () {
      if (mine !== burst) return; // finished already (finishAll), and another burst may be moving
      Array.prototype.forEach.call(document.querySelectorAll(".hide-until-landed"), function (el) {
        el.classList.remove("hide-until-landed");
      });
    });
  }

  root.addEventListener("table:beforeswap", function () {
    finishAll();
    var v = view();
    var hand = {};
    cards().forEach(function (card) { hand[codeOf(card)] = rect(card); });
    before = { seq: v ? Number(v.getAttribute("data-seq") || 0) : 0, hand: hand };
  });

  root.addEventListener("table:swapped", function (e) {
    var old = before || { seq: 0, hand: {} };
    before = null;
    prepareHand();
    var v = view();
    var fresh = stepsOf(v).filter(function (s) { return s.seq > old.seq; });
    var prompt = document.getElementById("prompt");
    var said = fresh.map(function (s) { return s.text; });
    if (prompt && prompt.textContent) said.push(prompt.textContent);
    announce(said.join(" "));
    if (e.detail && e.detail.focused) {
      var focus = cards().filter(function (c) { return control(c).tabIndex === 0; })[0];
      var active = document.activeElement;
      if (focus && (!active || active === document.body || active.closest(".handcard"))) {
        control(focus).focus({ preventScroll: true });
      }
    }
    if (!skipping() && old.seq && fresh.length) animate(fresh.slice(-MAX_ANIMATED), old);
  });

  root.addEventListener("change", function (e) {
    var card = e.target.closest && e.target.closest(".cardpick");
    if (card) roving(card); // match.js may have disabled the boxes left unticked
  });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") finishAll(); });

  // ---- the replay: the frame replay.js shows, moved into from the one before it, and read out
  if (replaying) {
    document.addEventListener("replay:shown", function (e) {
      finishAll(); // what the last step still moved lands at once: stepping is never held up
      var frame = document.getElementById("step-" + e.detail.step);
      if (!frame) return;
      scope = frame;
      var steps = stepsOf(frame);
      var title = frame.querySelector("h2");
      var said = steps.map(function (s) { return s.text; });
      if (title) said.unshift(title.textContent.trim() + ".");
      announce(said.join(" "));
      if (e.detail.from !== e.detail.step - 1 || skipping() || !steps.length) return; // a jump: no movement
      // Autoplay's next step comes after `interval` ms: the burst fits in most of it.
      var budget = e.detail.interval ? Math.min(BURST_MS, Math.floor(e.detail.interval * 0.8)) : BURST_MS;
      animate(steps.slice(-MAX_ANIMATED), { seq: 0, hand: {} }, budget);
    });
  }
  prepareHand();
})();
