// The table's chess clocks, each in its seat (web/templates/web/_seat_clock.html): each seat's time left as the
// server took it, counted down here for the seat whose time is going. A seat's figure was taken when its table was
// drawn (data-taken-at, the server's time in ms), and the line above the table (_clocks.html) carries the server's time
// of the read that brought it (data-clock-now): a spectators' table drawn once for all of them may be older than the
// read. So a running clock counts down from its figure by (read's time - figure's time) + the time since the read
// reached the page, all from the server's clock and this page's own: the browser's clock may be wrong by hours
// without harm. The server sends exact figures again with every step (the table pushed over the socket, or polled),
// and this script picks up whatever markup is on the page at each tick. Nothing here decides anything: a clock that
// reaches 0:00 is the server's to act on.
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

  // How long ago (ms) the server took the figure of `clock`: up to the read that brought it, and since.
  function age(clock, now) {
    var taken = Number(clock.getAttribute("data-taken-at"));
    if (!now || !taken) { return Date.now() - arrivedAt(clock); }
    return Math.max(0, Number(now.getAttribute("data-clock-now")) - taken) + (Date.now() - arrivedAt(now));
  }

  function tick() {
    var now = document.querySelector("[data-clock-now]");
    var clocks = document.querySelectorAll(".chess-clock[data-remaining-ms]");
    for (var j = 0; j < clocks.length; j++) {
      var c = clocks[j];
      var left = parseInt(c.getAttribute("data-remaining-ms"), 10);
      if (isNaN(left)) { continue; }
      var running = c.getAttribute("data-running") === "1";
      if (running) { left -= age(c, now); }
      var out = c.querySelector(".left");
      var text = shown(left);
      if (out && out.textContent !== text) { out.textContent = text; }
      c.classList.toggle("low", running && left < 20000);
    }
  }

  window.ChessClocks = { shown: shown, tick: tick };
  tick();
  window.setInterval(tick, 100);
})();
