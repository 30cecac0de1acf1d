// A round's clock (web/templatetags/round_clock.py): minutes and seconds left until the round's end, from the
// time the server wrote into the page, so every table's phone and the projector count down to the same moment.
(function () {
  "use strict";
  function pad(n) { return n < 10 ? "0" + n : String(n); }
  function tick() {
    var clocks = document.querySelectorAll(".clock-left[data-ends-at]");
    for (var i = 0; i < clocks.length; i++) {
      var left = Math.round((Date.parse(clocks[i].getAttribute("data-ends-at")) - Date.now()) / 1000);
      if (isNaN(left)) { continue; }
      if (left <= 0) {
        clocks[i].textContent = clocks[i].getAttribute("data-over");
        clocks[i].parentNode.classList.add("over");
      } else {
        var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
        clocks[i].textContent = (h ? h + ":" + pad(m) : String(m)) + ":" + pad(s);
      }
    }
  }
  tick();
  window.setInterval(tick, 1000);
})();
