// The replay: every step of the game is on the page (readable without a script); this shows one at a time and
// steps with the buttons or the arrow keys.
(function () {
  "use strict";
  var frames = document.querySelectorAll("#frames .frame");
  var counter = document.getElementById("frame-counter");
  if (!frames.length) return;
  var at = 0;
  document.documentElement.classList.add("js");

  function show(i) {
    at = Math.max(0, Math.min(frames.length - 1, i));
    Array.prototype.forEach.call(frames, function (f, k) { f.hidden = k !== at; });
    counter.textContent = "Step " + (at + 1) + " of " + frames.length;
  }

  document.querySelector(".stepper").addEventListener("click", function (e) {
    var step = e.target.getAttribute("data-step");
    if (step === "first") show(0);
    else if (step === "prev") show(at - 1);
    else if (step === "next") show(at + 1);
    else if (step === "last") show(frames.length - 1);
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowRight") show(at + 1);
    if (e.key === "ArrowLeft") show(at - 1);
  });
  show(0);
})();
