// The live table: poll the page's JSON view every 1.5 s and swap in the re-rendered table when the match moves on;
// send decisions with fetch so the page never reloads. One request at a time: a decision and a poll never overlap.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  var liveUrl = root.getAttribute("data-live-url");
  var busy = false;
  var timer = null;
  var POLL_MS = 1500;

  function view() { return root.querySelector(".table-view"); }

  function chosenCards() {
    return Array.prototype.map.call(root.querySelectorAll('input[name="cards"]:checked'), function (i) {
      return i.value;
    });
  }

  function swap(html) {
    var keep = chosenCards(); // cards ticked for passing survive a refresh
    var hadFocus = root.contains(document.activeElement);
    root.innerHTML = html;
    // Keyboard players keep their place: focus returns to the first thing they can choose now.
    var first = hadFocus && root.querySelector("form.decision button:enabled, form.decision input:enabled");
    if (first) first.focus({ preventScroll: true });
    // Screen readers hear what the table asks or waits for (the table itself is redrawn, not announced).
    var announce = document.getElementById("announce");
    var prompt = document.getElementById("prompt");
    if (announce && prompt) announce.textContent = prompt.textContent;
    keep.forEach(function (code) {
      var box = root.querySelector('input[name="cards"][value="' + code + '"]');
      if (box) box.checked = true;
    });
    updatePassButton();
    var status = view() && view().getAttribute("data-status");
    var badge = document.getElementById("match-status");
    var label = view() && view().getAttribute("data-status-label");
    if (badge && status) { badge.textContent = label || status; badge.className = "status status-" + status; }
  }

  function schedule() {
    clearTimeout(timer);
    var v = view();
    var status = v && v.getAttribute("data-status");
    if (status === "finished" || status === "failed") return; // nothing more will happen
    timer = setTimeout(poll, POLL_MS);
  }

  function poll() {
    if (busy) { schedule(); return; }
    var v = view();
    var url = liveUrl + "?move=" + encodeURIComponent(v ? v.getAttribute("data-move") : "") +
      "&status=" + encodeURIComponent(v ? v.getAttribute("data-status") : "");
    busy = true;
    fetch(url, { headers: { "Accept": "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data && data.html) swap(data.html); })
      .catch(function () { /* a dropped poll is retried at the next tick */ })
      .then(function () { busy = false; schedule(); });
  }

  function updatePassButton() {
    var button = root.querySelector("button[data-pass-count]");
    if (!button) return;
    var want = parseInt(button.getAttribute("data-pass-count"), 10);
    var have = chosenCards().length;
    button.disabled = have !== want;
    var hint = root.querySelector("[data-pass-hint]");
    // The page's words, in its language (match.html's data-chosen: "Chosen {have} of {want}.").
    var chosen = document.getElementById("table").getAttribute("data-chosen") || "Chosen {have} of {want}.";
    if (hint) hint.textContent = chosen.replace("{have}", have).replace("{want}", want);
    // Once enough are chosen, the rest cannot be ticked (and say why).
    Array.prototype.forEach.call(root.querySelectorAll('input[name="cards"]'), function (box) {
      box.disabled = !box.checked && have >= want;
      box.parentNode.title = box.disabled ? "you have chosen " + want + " already" : "";
    });
  }

  root.addEventListener("change", function (e) {
    if (e.target && e.target.name === "cards") updatePassButton();
  });

  root.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.classList.contains("decision")) return;
    e.preventDefault();
    if (busy) return;
    var data = new FormData(form);
    if (e.submitter && e.submitter.name) data.append(e.submitter.name, e.submitter.value);
    Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) { b.disabled = true; });
    busy = true;
    var error = document.getElementById("decision-error");
    fetch(form.action, { method: "POST", body: data, headers: { "Accept": "application/json" },
                         credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (result) { if (!result.ok && error) error.textContent = result.detail; })
      .catch(function () {
        if (error) error.textContent = document.getElementById("table").getAttribute("data-send-failed");
      })
      .then(function () { busy = false; poll(); });
  });

  updatePassButton();
  schedule();
})();
