// The live table: the server pushes the re-rendered table over a WebSocket the moment the match moves on (web.push).
// Whenever no socket is open (not yet, dropped and reconnecting, or none at all: no support, a server without them
// such as `runserver`) the page polls its JSON view every 1.5 s, as it always did; after a few sockets in a row fail
// it stops trying and just polls. Either way the table is swapped in, and decisions are sent with fetch so the page
// never reloads. One request at a time: a decision and a poll never overlap.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  var liveUrl = root.getAttribute("data-live-url");
  var socketPath = root.getAttribute("data-socket-path");
  var busy = false;
  var timer = null;
  var POLL_MS = 1500;
  var socket = null;        // the socket, connecting or open
  var failures = 0;         // sockets in a row that closed soon (or never opened)
  var MAX_FAILURES = 4;     // then only poll
  var held = null;          // a pushed table that arrived while a decision was being sent

  function view() { return root.querySelector(".table-view"); }

  function chosenCards() {
    return Array.prototype.map.call(root.querySelectorAll('input[name="cards"]:checked'), function (i) {
      return i.value;
    });
  }

  // A game's own script (table_diamonds.js) hears of each redraw: "table:beforeswap" while the old table is still
  // there (where its cards were), "table:swapped" once the new one is in (what to animate and read out).
  function tell(name, detail) {
    var event;
    try { event = new CustomEvent(name, { detail: detail }); } catch (e) { return; }
    root.dispatchEvent(event);
  }

  function swap(html) {
    var keep = chosenCards(); // cards ticked for passing survive a refresh
    var hadFocus = root.contains(document.activeElement);
    tell("table:beforeswap", { focused: hadFocus });
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
    tell("table:swapped", { focused: hadFocus });
  }

  function over() {
    var status = view() && view().getAttribute("data-status");
    return status === "finished" || status === "failed" || status === "cancelled";
  }

  function pushed() { return socket !== null && socket.readyState === 1; }

  function schedule() {
    clearTimeout(timer);
    if (over()) return; // nothing more will happen
    if (pushed()) return; // the open socket brings every move
    timer = setTimeout(poll, POLL_MS);
  }

  // The socket says which move the page shows, so a socket opened again after a drop gets the table at once if the
  // match moved meanwhile.
  function connect() {
    var v = view();
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + socketPath +
      "?move=" + encodeURIComponent(v ? v.getAttribute("data-move") : "") +
      "&status=" + encodeURIComponent(v ? v.getAttribute("data-status") : "");
    var opened = 0;
    try { socket = new WebSocket(url); } catch (e) { socket = null; return; }
    socket.onopen = function () { opened = Date.now(); clearTimeout(timer); };
    socket.onmessage = function (e) {
      var data;
      try { data = JSON.parse(e.data); } catch (x) { return; }
      if (!data || !data.html) return;
      if (busy) { held = data.html; return; }
      swap(data.html);
      if (over() && socket) socket.close(1000);
    };
    socket.onclose = function (e) {
      socket = null;
      if (over()) return;
      schedule(); // poll until a socket is open again
      // A socket that stayed open a while had worked: start counting again. 4400, 4403, 4404: this page may not
      // watch (or the match is gone); polling will say so.
      failures = opened && Date.now() - opened > 30000 ? 1 : failures + 1;
      if (failures >= MAX_FAILURES || e.code === 4403 || e.code === 4404 || e.code === 4400) return;
      setTimeout(connect, Math.min(15000, 500 * Math.pow(2, failures)) * (0.75 + Math.random() / 2));
    };
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
      .then(function () { busy = false; if (!sendQueued()) schedule(); });
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
      var enough = document.getElementById("table").getAttribute("data-enough") || "";
      box.parentNode.title = box.disabled ? enough.replace("{want}", want) : "";
    });
  }

  root.addEventListener("change", function (e) {
    if (e.target && e.target.name === "cards") updatePassButton();
  });

  // A decision made while a poll is on its way waits for it (then goes, with the move it was made on: the server
  // refuses it as stale if the table moved meanwhile, and says so) rather than being lost.
  var queued = null;

  root.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.classList.contains("decision")) return;
    e.preventDefault();
    var data = new FormData(form);
    if (e.submitter && e.submitter.name) data.append(e.submitter.name, e.submitter.value);
    Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) { b.disabled = true; });
    if (busy) { if (!queued) queued = { form: form, data: data }; return; }
    send(form, data);
  });

  function send(form, data) {
    busy = true;
    var error = document.getElementById("decision-error");
    fetch(form.action, { method: "POST", body: data, headers: { "Accept": "application/json" },
                         credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (result) { if (!result.ok && error) error.textContent = result.detail; })
      .catch(function () {
        if (error) error.textContent = document.getElementById("table").getAttribute("data-send-failed");
      })
      .then(function () {
        busy = false;
        if (!pushed()) { poll(); return; }
        if (held) { swap(held); held = null; } // the socket brings the table the decision led to
      });
  }

  function sendQueued() {
    if (!queued) return false;
    var q = queued;
    queued = null;
    send(q.form, q.data);
    return true;
  }

  updatePassButton();
  if (socketPath && "WebSocket" in window && !over()) connect();
  schedule();
})();
