// A competition's page kept live (web/live_pages.py): a tournament's tables, standings and entrants, a ladder's
// ratings and matches, a comparison's test. The element marked data-live-page names the page's socket and its JSON
// endpoint; both answer {"fragments": {"<element id>": "<html>"}, "done": bool}, drawn by the server for this reader
// in the page's language. The server pushes a fresh answer over the WebSocket whenever the competition changes
// (web.push); whenever no socket is open (not yet, dropped and reconnecting, or none at all: a server without them)
// the page polls the endpoint every data-poll-seconds, as the comparison page always did. Only the parts that
// changed are swapped in, so a reader's place on the page (and an open disclosure elsewhere) is kept. A page whose
// competition is over ("done") stops listening; one that was live when it ended is drawn again whole, once.
(function () {
  "use strict";
  var root = document.querySelector("[data-live-page]");
  if (!root || root.hidden) { return; }
  var url = root.getAttribute("data-live-url");
  var path = root.getAttribute("data-socket-path");
  var pollMs = (parseInt(root.getAttribute("data-poll-seconds"), 10) || 10) * 1000;
  var MAX_FAILURES = 4;
  var shown = {};          // the fragments last swapped in, by element id
  var socket = null, failures = 0, timer = null, stopped = false, busy = false;

  function apply(data) {
    if (!data || stopped) { return; }
    var fragments = data.fragments || {};
    Object.keys(fragments).forEach(function (id) {
      var box = document.getElementById(id);
      if (!box || shown[id] === fragments[id]) { return; }
      if (shown[id] !== undefined || box.innerHTML !== fragments[id]) { box.innerHTML = fragments[id]; }
      shown[id] = fragments[id];
    });
    if (data.done) { stop(); if (root.getAttribute("data-reload-when-done") !== null) { window.location.reload(); } }
  }

  function stop() {
    stopped = true;
    clearTimeout(timer);
    if (socket) { socket.onclose = null; socket.close(1000); socket = null; }
  }

  function open() { return socket !== null && socket.readyState === 1; }

  function schedule() {
    clearTimeout(timer);
    if (!stopped && !open()) { timer = setTimeout(poll, pollMs); }
  }

  function poll() {
    if (stopped || open() || busy || document.hidden) { schedule(); return; }
    busy = true;
    fetch(url, { headers: { "Accept": "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(apply)
      .catch(function () { /* the next tick tries again */ })
      .then(function () { busy = false; schedule(); });
  }

  function connect() {
    var opened = 0;
    try {
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + path);
    } catch (e) { socket = null; schedule(); return; }
    socket.onopen = function () { opened = Date.now(); clearTimeout(timer); };
    socket.onmessage = function (e) {
      var data;
      try { data = JSON.parse(e.data); } catch (x) { return; }
      apply(data);
    };
    socket.onclose = function (e) {
      socket = null;
      if (stopped) { return; }
      schedule(); // poll until a socket is open again
      failures = opened && Date.now() - opened > 30000 ? 1 : failures + 1;
      if (failures >= MAX_FAILURES || e.code === 4403 || e.code === 4404 || e.code === 4400) { return; }
      setTimeout(connect, Math.min(15000, 500 * Math.pow(2, failures)) * (0.75 + Math.random() / 2));
    };
  }

  if (path && "WebSocket" in window) { connect(); }
  schedule();
})();
