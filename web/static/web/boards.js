// What the drawn boards of Diamoniak and the ring race share (board_diamoniak.js and board_ringrace.js add each game's
// own movement):
// - playing on the board: a first tap on a lit card, pile or place lifts it (and says which move it is), a second
//   tap (or a swipe up) plays it; the arrow keys choose among the lit ones, Enter (or Space) plays at once. Without
//   this script every lit thing is a plain submit button: one click plays.
// - movement: when match.js swaps in a table after a move (pushed or polled), or the replay steps forward by one, the
//   events the page had not shown yet (the log's items past the table's last data-events) are shown moving, one
//   after the other, and said in words in the page's live region. Short, skipped by any tap or key, and none at all
//   under prefers-reduced-motion.
(function () {
  "use strict";
  var Boards = window.Boards = window.Boards || {};
  var games = Boards.games = Boards.games || {};
  var quiet = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var MAX_MOVES = 6;   // a burst of moves (the bots' turns) shows its last few only
  var FLIGHT_MS = 340; // one card or diamond on its way

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }
  function whenLoaded(fn) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn); else fn();
  }
  function moving() { return !(quiet && quiet.matches) && !document.hidden && !!document.body.animate; }

  // ---- movement -------------------------------------------------------------------------------------------------
  var layer = null;
  var flights = [];  // {animation, sprite, hidden}

  function flyLayer() {
    if (!layer || !layer.isConnected) {
      layer = document.createElement("div");
      layer.className = "fly-layer";
      layer.setAttribute("aria-hidden", "true");
      document.body.appendChild(layer);
    }
    return layer;
  }

  function centreOf(el) {
    var r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
  }

  // An element some flights are still bringing stays hidden until the last of them lands.
  var awaited = [];  // [element, flights on their way]
  function awaiting(el, change) {
    var entry = awaited.filter(function (a) { return a[0] === el; })[0];
    if (!entry) { entry = [el, 0]; awaited.push(entry); }
    entry[1] += change;
    el.classList.toggle("arriving", entry[1] > 0);
    if (entry[1] <= 0) awaited.splice(awaited.indexOf(entry), 1);
  }

  function land(f) {
    if (f.landed) return;
    f.landed = true;
    if (f.sprite.parentNode) f.sprite.parentNode.removeChild(f.sprite);
    if (f.hidden) awaiting(f.hidden, -1);
    flights.splice(flights.indexOf(f), 1);
  }

  // Moves `sprite` (an element made for the flight) through `points` (elements, or {x, y} points: the first is where
  // it starts, the last where it lands), starting `delay` ms from now. `hidden`, the element it becomes, stays
  // hidden until it lands.
  Boards.fly = function (sprite, points, delay, duration, hidden) {
    var spots = points.filter(Boolean).map(function (p) { return p.getBoundingClientRect ? centreOf(p) : p; });
    if (spots.length < 2) return 0;
    flyLayer().appendChild(sprite);
    var size = sprite.getBoundingClientRect();
    var end = spots[spots.length - 1];
    sprite.style.left = (end.x - size.width / 2) + "px";
    sprite.style.top = (end.y - size.height / 2) + "px";
    var frames = spots.map(function (p, k) {
      var grow = k === 0 || k === spots.length - 1 ? 1 : 1.15;
      return { transform: "translate(" + (p.x - end.x) + "px," + (p.y - end.y) + "px) scale(" + grow + ")",
               opacity: k === 0 ? 0.2 : 1 };
    });
    var f = { sprite: sprite, hidden: hidden || null };
    if (f.hidden) awaiting(f.hidden, 1);
    f.animation = sprite.animate(frames, { duration: duration || FLIGHT_MS, delay: delay || 0, easing: "ease-in-out",
                                           fill: "backwards" });
    f.animation.onfinish = function () { land(f); };
    f.animation.oncancel = function () { land(f); };
    flights.push(f);
    return (delay || 0) + (duration || FLIGHT_MS);
  };

  // A flash where something happened without moving (a try that found a fixed diamond).
  Boards.flash = function (at, delay) {
    if (!at) return 0;
    var spot = centreOf(at);
    var ring = document.createElement("span");
    ring.className = "fly-flash";
    flyLayer().appendChild(ring);
    ring.style.left = (spot.x - spot.w / 2) + "px";
    ring.style.top = (spot.y - spot.h / 2) + "px";
    ring.style.width = spot.w + "px";
    ring.style.height = spot.h + "px";
    var f = { sprite: ring, hidden: null };
    f.animation = ring.animate([{ transform: "scale(.6)", opacity: 1 }, { transform: "scale(1.35)", opacity: 0 }],
                               { duration: FLIGHT_MS, delay: delay || 0, fill: "backwards" });
    f.animation.onfinish = function () { land(f); };
    f.animation.oncancel = function () { land(f); };
    flights.push(f);
    return (delay || 0) + FLIGHT_MS;
  };

  Boards.skip = function () {
    flights.slice().forEach(function (f) { f.animation.finish(); });
  };
  // Any tap or key ends the movement at once (and then does what it does).
  document.addEventListener("pointerdown", Boards.skip, true);
  document.addEventListener("keydown", Boards.skip, true);

  // The moves of `scope` (a live table or a replay step) from event `since` on, as their log items, oldest first.
  function movesIn(scope, since) {
    var items = Array.prototype.slice.call(scope.querySelectorAll(".moves-log li[data-i]"));
    items = items.filter(function (li) { return Number(li.getAttribute("data-i")) >= since; });
    items.sort(function (a, b) { return Number(a.getAttribute("data-i")) - Number(b.getAttribute("data-i")); });
    return items;
  }

  // Shows `moves` (log items) happening on the board in `scope`, one after the other.
  function play(game, scope, moves, context) {
    Boards.skip(); // what was still moving lands at once: the new table is already there
    if (!game || !moving() || !moves.length) return;
    var at = 0;
    moves.slice(-MAX_MOVES).forEach(function (li) {
      var data = {};
      each(li.attributes, function (a) {
        if (a.name.indexOf("data-") === 0) data[a.name.slice(5).replace(/-(\w)/g, function (m, c) { return c.toUpperCase(); })] = a.value;
      });
      var took = game.show(data, scope, at, context) || 0;
      at = Math.max(at, took);
    });
  }

  function words(moves) {
    return moves.map(function (li) { return li.textContent.trim(); }).join(" ");
  }

  function announce(text) {
    var region = document.getElementById("announce");
    if (region && text) region.textContent = text;
  }

  function gameOf(scope) {
    var board = scope.querySelector("[data-board-game]");
    return board ? games[board.getAttribute("data-board-game")] : null;
  }

  // ---- choosing and playing on the board ---------------------------------------------------------------------------
  function targetsIn(root) {
    return Array.prototype.slice.call(root.querySelectorAll("form.decision .target:not(:disabled)"));
  }

  function hint() { return document.getElementById("board-hint"); }

  function unlift(root) {
    each(root.querySelectorAll(".target.lifted"), function (t) { t.classList.remove("lifted"); });
    var h = hint();
    if (h && h.hasAttribute("data-told")) { h.textContent = h.getAttribute("data-told"); h.removeAttribute("data-told"); }
  }

  function lift(root, target) {
    unlift(root);
    target.classList.add("lifted");
    var h = hint();
    if (h) {
      h.setAttribute("data-told", h.textContent);
      var name = target.getAttribute("aria-label") || target.textContent.trim();
      h.textContent = (h.getAttribute("data-chosen") || "{move}").replace("{move}", name);
    }
  }

  function liveTable(root) {
    var swiped = null;
    root.addEventListener("click", function (e) {
      var target = e.target.closest ? e.target.closest(".target") : null;
      if (!target || !root.contains(target)) { unlift(root); return; }
      if (swiped === target) { swiped = null; e.preventDefault(); return; } // played by the swipe already
      // A keyboard's Enter or Space (or a screen reader's activation) plays at once; a tap lifts first.
      if (e.detail === 0 || target.classList.contains("lifted")) return;
      e.preventDefault();
      lift(root, target);
    });
    var startY = null;
    root.addEventListener("pointerdown", function (e) {
      var target = e.target.closest ? e.target.closest(".target.lifted") : null;
      startY = target ? e.clientY : null;
    });
    root.addEventListener("pointerup", function (e) {
      var target = e.target.closest ? e.target.closest(".target.lifted") : null;
      if (target && startY !== null && startY - e.clientY > 30 && target.form) {
        swiped = target;
        if (target.form.requestSubmit) target.form.requestSubmit(target); else target.click();
      }
      startY = null;
    });
    root.addEventListener("keydown", function (e) {
      var target = e.target.closest ? e.target.closest(".target") : null;
      if (!target) return;
      if (e.key === "Escape") { unlift(root); return; }
      var list = targetsIn(root);
      var k = list.indexOf(target);
      var to = { ArrowRight: k + 1, ArrowDown: k + 1, ArrowLeft: k - 1, ArrowUp: k - 1, Home: 0, End: list.length - 1 }[e.key];
      if (to === undefined || k < 0 || !list.length) return;
      e.preventDefault();
      var next = list[(to + list.length) % list.length];
      next.focus();
      lift(root, next);
    });
  }

  // ---- the live table: match.js swaps #table's content for each move ---------------------------------------------
  var table = document.getElementById("table");
  if (table) {
    var view = function () { return table.querySelector(".table-view"); };
    var seen = view() ? Number(view().getAttribute("data-events")) : 0;
    var pawnAt = null;
    var remember = function () {
      var game = gameOf(table);
      pawnAt = game && game.context ? game.context(table) : null;
    };
    liveTable(table);
    whenLoaded(remember); // the game's script comes after this one
    new MutationObserver(function () {
      var v = view();
      if (!v || !v.hasAttribute("data-events")) return;
      var now = Number(v.getAttribute("data-events"));
      var fresh = now > seen ? movesIn(v, seen) : [];
      seen = now;
      if (fresh.length) {
        var prompt = document.getElementById("prompt");
        announce(words(fresh) + (prompt ? " " + prompt.textContent.trim() : ""));
        play(gameOf(v), v, fresh, pawnAt);
      }
      remember();
    }).observe(table, { childList: true });
  }

  // ---- the replay: replay.js shows one step at a time ------------------------------------------------------------
  var framesBox = document.getElementById("frames");
  if (framesBox) {
    var stepOf = function (n) { return document.getElementById("step-" + n); };
    var showStep = function (n, from) {
      var frame = stepOf(n);
      if (!frame) return;
      var moves = movesIn(frame, 0);
      var title = frame.querySelector("h2");
      announce((title ? title.textContent.trim() + ". " : "") + words(moves));
      if (from !== n - 1) return; // a jump: no movement, the step is simply there
      var game = gameOf(frame);
      var before = stepOf(n - 1);
      play(game, frame, moves, before && game && game.context ? game.context(before) : null);
    };
    document.addEventListener("replay:shown", function (e) { showStep(e.detail.step, e.detail.from); });
  }
})();
