// The replay: the page holds one window of the game's steps, readable without a script, with links to the windows
// around it. This shows one step at a time, steps with the links or the arrow keys, and past the window's edge goes
// to the page of the window holding the step wanted, which opens on that step.
(function () {
  "use strict";
  var box = document.getElementById("frames");
  var frames = box ? box.querySelectorAll(".frame") : [];
  var counter = document.getElementById("frame-counter");
  if (!frames.length) return;
  var start = Number(box.getAttribute("data-start"));
  var total = Number(box.getAttribute("data-total"));
  var links = document.querySelectorAll(".stepper [data-step]");
  var step = 0; // the step shown, 1-based over the whole game
  document.documentElement.classList.add("js");

  function urlOf(n) {
    var url = new URL(window.location.href);
    url.searchParams.set("step", n);
    url.hash = "";
    return url.toString();
  }

  function show(n, remember) {
    var from = step;
    step = n;
    Array.prototype.forEach.call(frames, function (f, k) { f.hidden = start + k + 1 !== n; });
    // The page's words, in its language (replay.html's data-step-of: "Step {step} of {total}").
    var words = counter.getAttribute("data-step-of") || "Step {step} of {total}";
    counter.textContent = words.replace("{step}", n).replace("{total}", total);
    Array.prototype.forEach.call(links, function (a) {
      var to = a.getAttribute("data-step");
      var stuck = (to === "first" || to === "prev") ? n === 1 : n === total;
      if (stuck) a.setAttribute("aria-disabled", "true"); else a.removeAttribute("aria-disabled");
    });
    // So that reloading the page, or coming back to it, shows this step again.
    if (remember && window.history.replaceState) window.history.replaceState(null, "", urlOf(n));
    // Told to the page's other scripts (replay_controls.js, a board's movement): which step is shown, and after which.
    document.dispatchEvent(new CustomEvent("replay:shown", { detail: { step: n, from: from, total: total } }));
  }

  function go(n) {
    if (n < 1 || n > total || n === step) return;
    if (n > start && n <= start + frames.length) show(n, true);
    else window.location.assign(urlOf(n));
  }

  document.querySelector(".stepper").addEventListener("click", function (e) {
    var link = e.target.closest("[data-step]");
    if (!link) return;
    e.preventDefault();
    var to = link.getAttribute("data-step");
    go(to === "first" ? 1 : to === "prev" ? step - 1 : to === "next" ? step + 1 : total);
  });
  document.addEventListener("replay:go", function (e) { go(e.detail.step); }); // autoplay, the scrubber
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return; // Alt+← is the browser's Back
    if (e.key === "ArrowRight") go(step + 1);
    if (e.key === "ArrowLeft") go(step - 1);
  });
  var shown = Number(box.getAttribute("data-shown"));
  show(Math.max(start + 1, Math.min(start + frames.length, shown)), false);
})();
