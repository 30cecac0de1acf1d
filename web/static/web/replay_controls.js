// The replay's autoplay and scrubber (replay.html's #replay-play), for every game: they step through replay.js (the
// "replay:go" event) and follow what it shows ("replay:shown"). Autoplay goes on across the pages of a long game:
// the address keeps `play=<ms>` while it runs, so the next window's page starts playing again where this one ended.
(function () {
  "use strict";
  var box = document.getElementById("replay-play");
  var frames = document.getElementById("frames");
  if (!box || !frames || !frames.querySelector(".frame")) return;
  var button = document.getElementById("replay-autoplay");
  var icon = button.querySelector("[data-playing]");
  var speed = document.getElementById("replay-speed");
  var scrub = document.getElementById("replay-scrub");
  var counter = document.getElementById("frame-counter");
  var total = Number(frames.getAttribute("data-total"));
  var timer = null;
  var step = shownStep();
  box.hidden = false;

  function shownStep() {
    var shown = frames.querySelector(".frame:not([hidden])");
    return shown ? Number(shown.getAttribute("data-index")) + 1 : Number(frames.getAttribute("data-shown")) || 1;
  }

  function go(n) { document.dispatchEvent(new CustomEvent("replay:go", { detail: { step: n } })); }

  function remember(playing) {
    if (!window.history.replaceState) return;
    var url = new URL(window.location.href);
    if (playing) url.searchParams.set("play", speed.value); else url.searchParams.delete("play");
    window.history.replaceState(null, "", url.toString());
  }

  function tick() {
    if (step >= total) { stop(); return; }
    go(step + 1);
  }

  function start() {
    if (step >= total) go(1); // played to the end: from the start again
    clearInterval(timer);
    timer = setInterval(tick, Number(speed.value));
    button.setAttribute("aria-pressed", "true");
    icon.textContent = icon.getAttribute("data-playing");
    remember(true);
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    button.setAttribute("aria-pressed", "false");
    icon.textContent = icon.getAttribute("data-paused");
    remember(false);
  }

  function follow(n) {
    step = n;
    scrub.value = String(n);
    scrub.setAttribute("aria-valuetext", counter ? counter.textContent : String(n));
  }

  button.addEventListener("click", function () { if (timer) stop(); else start(); });
  speed.addEventListener("change", function () { if (timer) start(); });
  // Dragging shows the step it would go to; letting go goes there (a step outside this page's window loads its page).
  scrub.addEventListener("input", function () {
    var words = counter && counter.getAttribute("data-step-of");
    if (words) scrub.setAttribute("aria-valuetext", words.replace("{step}", scrub.value).replace("{total}", total));
  });
  scrub.addEventListener("change", function () { go(Number(scrub.value)); });
  // Arrow keys on the scrubber or the speed belong to them, not to replay.js's stepping (which would step twice).
  [scrub, speed].forEach(function (control) {
    control.addEventListener("keydown", function (e) { if (e.key.indexOf("Arrow") === 0) e.stopPropagation(); });
  });
  document.addEventListener("replay:shown", function (e) { follow(e.detail.step); });
  follow(step);

  var asked = new URL(window.location.href).searchParams.get("play");
  if (asked) {
    var known = Array.prototype.some.call(speed.options, function (o) { return o.value === asked; });
    if (known) speed.value = asked;
    start();
  }
})();
