// Diamoniak's movement (boards.js plays it): a drawn card flies from the draw pile to the castle, the side pile or
// (a witch) the discard pile; what the witch takes and a fairy fly to the discard pile; a purchase's castle card
// flies from the seller to the buyer, and its diamond cards to the seller (or the discard pile); a reshuffle sends
// the discard pile back to be drawn. The events are public (web/games/diamoniak.py: move_attrs).
(function () {
  "use strict";
  var Boards = window.Boards;
  if (!Boards) return;

  function seat(scope, n) { return scope.querySelector('.seat[data-seat="' + n + '"]'); }
  function inSeat(scope, n, selector) { var s = seat(scope, n); return s ? s.querySelector(selector) : null; }
  function pile(scope, name) { return scope.querySelector('.piles-row [data-area="' + name + '"]'); }
  function cardIn(el, name) { return el ? el.querySelector('[data-card="' + name + '"]') : null; }

  // A card drawn as the board draws it, to fly.
  function sprite(look, number, shape) {
    var card = document.createElement("span");
    card.className = "dkc big " + (look || "back");
    var art = document.createElement("i");
    art.className = "art";
    card.appendChild(art);
    if (number && look && look.indexOf("castle") === 0) {
      var num = document.createElement("b");
      num.className = "num";
      num.textContent = number;
      card.appendChild(num);
      var emblem = document.createElement("i");
      emblem.className = "emblem " + (shape || "");
      card.appendChild(emblem);
    }
    return card;
  }

  function fromStack(kind) { return '[data-stack="' + kind + '"]'; }

  Boards.games.diamoniak = {
    show: function (m, scope, at) {
      var s = m.seat;
      var card = function () { return sprite(m.look, m.num, m.shape); };
      if (m.kind === "draw") {
        var to;
        if (m.to === "discard") to = pile(scope, "discard");
        else if (m.to === "castle") to = cardIn(inSeat(scope, s, '[data-area="castle"]'), m.card) || inSeat(scope, s, '[data-area="castle"]');
        else to = cardIn(inSeat(scope, s, '[data-area="side"]'), m.card) ||
          inSeat(scope, s, fromStack(m.look === "fairy" ? "fairy" : "diamond"));
        var arriving = to && to.hasAttribute("data-card") ? to : null;
        return Boards.fly(card(), [pile(scope, "draw"), to], at, null, arriving);
      }
      if (m.kind === "discard") {
        var top = cardIn(pile(scope, "discard"), m.card);
        return Boards.fly(card(), [inSeat(scope, s, '[data-area="' + (m.from === "castle" ? "castle" : "side") + '"]'),
                                   pile(scope, "discard")], at, null, top);
      }
      if (m.kind === "fairy") {
        return Boards.fly(card(), [inSeat(scope, s, fromStack("fairy")), pile(scope, "discard")], at, null,
                          cardIn(pile(scope, "discard"), m.card));
      }
      if (m.kind === "buy") {
        var bought = cardIn(inSeat(scope, s, '[data-area="castle"]'), m.card);
        var end = Boards.fly(card(), [inSeat(scope, m.seller, '[data-area="side"]'),
                                      bought || inSeat(scope, s, '[data-area="castle"]')], at, null, bought);
        var payTo = m.paidTo === "seller" ? inSeat(scope, m.seller, fromStack("diamond")) : pile(scope, "discard");
        for (var k = 0; k < Number(m.paid || 0); k++) {
          end = Math.max(end, Boards.fly(sprite("diamond"), [inSeat(scope, s, fromStack("diamond")), payTo],
                                         at + 90 * (k + 1)));
        }
        return end;
      }
      if (m.kind === "reshuffle") {
        return Boards.fly(sprite("back"), [pile(scope, "discard"), pile(scope, "draw")], at);
      }
      return at;
    }
  };
})();
