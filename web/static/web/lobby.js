// The lobby without reloads: the server pushes the lobby's two lists over a WebSocket whenever a table opens, fills,
// starts or closes (web.push), drawn by the server in the page's language; a table's page gets the table's JSON
// the same way and, once the game has started, sends a seated player to the match (and draws the page again when
// someone joins or leaves). Where sockets fail, both poll their JSON view every 3 s, as they always did.
(function () {
  "use strict";
  var POLL_MS = 3000;
  var MAX_FAILURES = 4;

  function getJSON(url, done) {
    var xhr = new XMLHttpRequest();
    xhr.open("GET", url);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.onload = function () { if (xhr.status === 200) done(JSON.parse(xhr.responseText)); };
    xhr.send();
  }

  // Pushes from `path` go to `handle`; `poll` runs every POLL_MS whenever no socket is open (not yet, dropped, or
  // none at all), and alone after a few sockets in a row failed.
  function live(path, handle, poll) {
    var failures = 0;
    var socket = null;
    var timer = setInterval(function () { if (!socket || socket.readyState !== 1) poll(); }, POLL_MS);
    function connect() {
      var opened = 0;
      try {
        socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + path);
      } catch (e) { socket = null; return; }
      socket.onopen = function () { opened = Date.now(); };
      socket.onmessage = function (e) {
        var data;
        try { data = JSON.parse(e.data); } catch (x) { return; }
        if (data) handle(data);
      };
      socket.onclose = function (e) {
        socket = null;
        failures = opened && Date.now() - opened > 30000 ? 1 : failures + 1;
        if (failures >= MAX_FAILURES || e.code === 4403 || e.code === 4404 || e.code === 4400) return;
        setTimeout(connect, Math.min(15000, 500 * Math.pow(2, failures)) * (0.75 + Math.random() / 2));
      };
    }
    if ("WebSocket" in window) connect();
    // Stops both (the page is leaving).
    return function () { clearInterval(timer); if (socket) { socket.onclose = null; socket.close(1000); } };
  }

  var lobby = document.getElementById("my-tables");
  if (lobby) {
    var url = lobby.getAttribute("data-live-url");
    var mineList = document.getElementById("mine-list");
    var tablesList = document.getElementById("tables-list");
    var showLists = function (data) {
      if (mineList.innerHTML !== data.html.mine) mineList.innerHTML = data.html.mine;
      if (tablesList.innerHTML !== data.html.tables) tablesList.innerHTML = data.html.tables;
    };
    live(lobby.getAttribute("data-socket-path"), showLists, function () { getJSON(url, showLists); });
  }

  var table = document.getElementById("lobby-table");
  if (table) {
    var tableUrl = table.getAttribute("data-live-url");
    var shown = document.getElementById("table-status").textContent;
    var freeShown = document.getElementById("free-seats").textContent;
    var stop = null;
    var showTable = function (t) {
      if (t.status === "started" && t.seated && t.match_url) {
        stop();
        window.location.assign(t.match_url);
      } else if (t.status !== shown || String(t.free_seats) !== freeShown) {
        stop();
        window.location.reload(); // who sits there and what one may do have changed: the server draws it again
      }
    };
    stop = live(table.getAttribute("data-socket-path"), showTable, function () { getJSON(tableUrl, showTable); });
  }
})();
