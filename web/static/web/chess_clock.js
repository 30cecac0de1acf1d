// The table's chess clocks (web/templates/web/_clocks.html): each seat's time left as the server took it, counted
// down here for the seat whose time is going. The figures count from the moment the markup reached the page, so the
// browser's own clock may be wrong by hours without harm; the server sends exact figures again with every step (the
// table pushed over the socket, or polled), and this script picks up whatever markup is on the page at each tick.
// Nothing here decides anything: a clock that reaches 0:00 is the server's to act on.
(function () {
  "use strict";
  var arrived = typeof WeakMap === "function" ? new WeakMap() : null;

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  // 1:02:03, 4:05, and under ten seconds 9.8 (the tenths matter then).
  function shown(ms) {
    if (ms <= 0) { return "0:00"; }
    if (ms < 10000) { return (Math.floor(ms / 100) / 10).toFixed(1); }
    var s = Math.floor(ms / 1000);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return (h ? h + ":" + pad(m) : String(m)) + ":" + pad(s % 60);
  }

  function arrivedAt(box) {
    if (!arrived) { return box._arrived || (box._arrived = Date.now()); }
    if (!arrived.has(box)) { arrived.set(box, Date.now()); }
    return arrived.get(box);
  }

  function tick() {
    var boxes = document.querySelectorAll(".chess-clocks");
    for (var i = 0; i < boxes.length; i++) {
      var since = Date.now() - arrivedAt(boxes[i]);
      var clocks = boxes[i].querySelectorAll(".chess-clock[data-remaining-ms]");
      for (var j = 0; j < clocks.length; j++) {
        var c = clocks[j];
        var left = parseInt(c.getAttribute("data-remaining-ms"), 10);
        if (isNaN(left)) { continue; }
        if (c.getAttribute("data-running") === "1") { left -= since; }
        var out = c.querySelector(".left");
        var text = shown(left);
        if (out && out.textContent !== text) { out.textContent = text; }
        c.classList.toggle("low", c.getAttribute("data-running") === "1" && left < 20000);
      }
    }
  }

  window.ChessClocks = { shown: shown, tick: tick };
  tick();
  window.setInterval(tick, 100);
})();
