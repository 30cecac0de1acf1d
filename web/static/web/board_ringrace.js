// The ring race's movement (boards.js plays it): a drawn card flies from the deck to where the card is shown; a try
// walks the searcher's pawn along the track to the position tried, and a loose diamond then flies to the ring it is
// set on (a fixed one flashes where it stays); a steal flies a diamond from the robbed ring to the thief's; a steal
// card with no steal goes aside. The events are public (web/games/ringrace.py: move_attrs).
(function () {
  "use strict";
  var Boards = window.Boards;
  if (!Boards) return;
  var POSITIONS = 42;

  function seat(scope, n) { return scope.querySelector('.seat[data-seat="' + n + '"]'); }
  function ring(scope, name) { return name ? scope.querySelector('.rr-ring[data-card="' + name + '"]') : null; }
  function spot(scope, name) { return scope.querySelector('.rr-deckline [data-area="' + name + '"]'); }
  function position(scope, p) { return scope.querySelector(".rr-pos.pos-" + p); }

  function el(tag, className, text) {
    var e = document.createElement(tag);
    e.className = className;
    if (text) e.textContent = text;
    return e;
  }

  function cardSprite(m) {
    if (m.value) {
      var face = el("span", "rrc ring");
      var art = el("span", "ringart", m.value);
      art.insertBefore(el("i", "gem"), art.firstChild);
      face.appendChild(art);
      return face;
    }
    var steal = el("span", "rrc steal");
    steal.appendChild(el("i", "art"));
    return steal;
  }

  function pawnSprite() {
    var pawn = el("span", "fly-pawn");
    pawn.appendChild(el("i", ""));
    return pawn;
  }

  // The positions the pawn walks by from `from` to `to`, the short way round the track.
  function walk(scope, from, to) {
    var ahead = (to - from + POSITIONS) % POSITIONS;
    var step = ahead <= POSITIONS / 2 ? 1 : -1;
    var path = [];
    for (var p = from; p !== to; p = (p + step + POSITIONS) % POSITIONS) path.push(position(scope, p));
    path.push(position(scope, to));
    return path;
  }

  Boards.games.ringrace = {
    // Where the pawn stood before the moves shown next (the page remembers it between tables).
    context: function (scope) {
      var at = scope.querySelector(".rr-pos.has-pawn");
      var found = at && /\bpos-(\d+)\b/.exec(at.className);
      return { pawn: found ? Number(found[1]) : null };
    },
    show: function (m, scope, at, context) {
      context = context || { pawn: null };
      if (m.kind === "draw") return Boards.fly(cardSprite(m), [spot(scope, "deck"), spot(scope, "shown")], at);
      if (m.kind === "set_aside") return Boards.fly(cardSprite(m), [spot(scope, "shown"), spot(scope, "aside")], at);
      if (m.kind === "try") {
        var to = Number(m.position);
        var path = context.pawn === null ? [seat(scope, m.seat), position(scope, to)] : walk(scope, context.pawn, to);
        var target = position(scope, to);
        var pawn = target ? target.querySelector(".rr-pawn") : null;
        var steps = Math.max(1, path.length - 1);
        var end = Boards.fly(pawnSprite(), path, at, Math.min(900, Math.max(320, steps * 45)), pawn);
        context.pawn = to;
        if (m.outcome === "loose") {
          var gem = el("span", "fly-gem");
          return Boards.fly(gem, [target, ring(scope, m.ring) || seat(scope, m.seat)], end);
        }
        return Boards.flash(target, end);
      }
      if (m.kind === "steal") {
        return Boards.fly(el("span", "fly-gem"), [ring(scope, m.takenFrom), ring(scope, m.setOn)], at);
      }
      return at;
    }
  };
})();
