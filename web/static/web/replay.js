// The replay, the same for every game: the page holds one window of the game's steps, readable without a script,
// with links to the windows around it and a scrubber that is a plain form. This shows one step at a time; the
// links, the arrow keys and the scrubber move through the steps, and a step outside the frames the page holds is
// fetched with its window (the same page, ?step=N) and added, so the page never reloads. "Play" steps forward by
// itself at the chosen speed until the last step, or until the reader steps, scrubs or presses Pause.
(function () {
  "use strict";
  var box = document.getElementById("frames");
  var counter = document.getElementById("frame-counter");
  if (!box || !box.querySelector(".frame")) return;
  var total = Number(box.getAttribute("data-total"));
  var links = document.querySelectorAll(".stepper [data-step]");
  var scrub = document.getElementById("replay-step");
  var go = document.querySelector("[data-scrub-go]");
  var auto = document.querySelector("[data-autoplay]");
  var play = auto && auto.querySelector("[data-play]");
  var speed = auto && auto.querySelector("[data-speed]");
  var step = 0; // the step shown, 1-based over the whole game
  var wanted = 0; // the step last asked for (a fetch may be under way)
  var timer = null;
  var loading = {}; // window start -> its fetch
  var SPEED_KEY = "diamonds.replaySpeed";
  document.documentElement.classList.add("js");

  function urlOf(n) {
    var url = new URL(window.location.href);
    url.searchParams.set("step", n);
    url.hash = "";
    return url.toString();
  }

  function frameOf(n) { return document.getElementById("step-" + n); }

  function words(n) {
    // The page's words, in its language (replay.html's data-step-of: "Step {step} of {total}").
    return (counter.getAttribute("data-step-of") || "Step {step} of {total}")
      .replace("{step}", n).replace("{total}", total);
  }

  function show(n, initial) {
    var frame = frameOf(n);
    if (!frame) return;
    var from = step;
    step = n;
    Array.prototype.forEach.call(box.querySelectorAll(".frame"), function (f) { f.hidden = f !== frame; });
    counter.textContent = words(n);
    if (scrub) { scrub.value = n; scrub.setAttribute("aria-valuetext", words(n)); }
    Array.prototype.forEach.call(links, function (a) {
      var to = a.getAttribute("data-step");
      var stuck = (to === "first" || to === "prev") ? n === 1 : n === total;
      if (stuck) a.setAttribute("aria-disabled", "true"); else a.removeAttribute("aria-disabled");
      a.setAttribute("href", "?step=" + (to === "first" ? 1 : to === "prev" ? Math.max(1, n - 1) :
        to === "next" ? Math.min(total, n + 1) : total));
    });
    // So that reloading the page, or coming back to it, shows this step again.
    if (!initial && window.history.replaceState) window.history.replaceState(null, "", urlOf(n));
    if (n >= total) stop();
    // Told to the page's other scripts (a board's movement, which plays a step reached from the one before it; while
    // autoplay runs, `interval` is its time a step, which that movement fits in).
    document.dispatchEvent(new CustomEvent("replay:shown", { detail: {
      step: n, from: from, total: total, interval: timer !== null && speed ? Number(speed.value) || 0 : 0 } }));
  }

  // The frames of the window holding step n, from the page that shows it, added in order among those held.
  function fetchWindow(n) {
    var key = String(n);
    if (!loading[key]) {
      loading[key] = fetch(urlOf(n), { credentials: "same-origin", headers: { "Accept": "text/html" } })
        .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
        .then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          Array.prototype.forEach.call(doc.querySelectorAll("#frames .frame"), function (f) {
            if (frameOf(Number(f.id.slice(5)))) return;
            var frame = document.importNode(f, true);
            frame.hidden = true;
            var index = Number(frame.getAttribute("data-index"));
            var after = Array.prototype.filter.call(box.querySelectorAll(".frame"), function (g) {
              return Number(g.getAttribute("data-index")) > index;
            })[0];
            box.insertBefore(frame, after || null);
          });
        })
        .catch(function () { delete loading[key]; throw new Error("not loaded"); });
    }
    return loading[key];
  }

  function goTo(n) {
    n = Math.max(1, Math.min(total, n));
    wanted = n;
    if (frameOf(n)) { show(n); return; }
    fetchWindow(n).then(function () { if (wanted === n) show(n); })
      .catch(function () { window.location.assign(urlOf(n)); }); // the plain page, then
  }

  function stop() {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
    if (play) { play.textContent = play.getAttribute("data-play-label"); play.setAttribute("aria-pressed", "false"); }
  }

  function start() {
    if (!play) return;
    if (step >= total) goTo(1);
    play.textContent = play.getAttribute("data-pause-label");
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(function () {
      if (wanted !== step) return; // the next window is still on its way
      if (step >= total) { stop(); return; }
      goTo(step + 1);
    }, Number(speed.value) || 1500);
  }

  document.querySelector(".stepper").addEventListener("click", function (e) {
    var link = e.target.closest("[data-step]");
    if (!link) return;
    e.preventDefault();
    stop();
    var to = link.getAttribute("data-step");
    goTo(to === "first" ? 1 : to === "prev" ? step - 1 : to === "next" ? step + 1 : total);
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return; // Alt+← is the browser's Back
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return; // the scrubber moves by itself
    if (e.key === "ArrowRight") { stop(); goTo(step + 1); }
    if (e.key === "ArrowLeft") { stop(); goTo(step - 1); }
  });
  if (scrub) {
    if (go) go.hidden = true; // the scrubber shows each step as it moves
    scrub.addEventListener("input", function () { stop(); goTo(Number(scrub.value)); });
    scrub.form.addEventListener("submit", function (e) { e.preventDefault(); goTo(Number(scrub.value)); });
  }
  if (auto && play && speed) {
    auto.hidden = false;
    try {
      var kept = window.localStorage.getItem(SPEED_KEY);
      if (kept && speed.querySelector('option[value="' + kept + '"]')) speed.value = kept;
    } catch (x) { /* no storage: the default speed */ }
    play.addEventListener("click", function () { if (timer === null) start(); else stop(); });
    speed.addEventListener("change", function () {
      try { window.localStorage.setItem(SPEED_KEY, speed.value); } catch (x) { /* not remembered */ }
      if (timer !== null) { stop(); start(); }
    });
  }
  var start0 = Number(box.getAttribute("data-start"));
  var held = box.querySelectorAll(".frame").length;
  var shown = Number(box.getAttribute("data-shown"));
  wanted = Math.max(start0 + 1, Math.min(start0 + held, shown));
  show(wanted, true);
})();
