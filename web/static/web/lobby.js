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

  // Pushes from `path` go to `handle`; after a socket that keeps closing (or none at all), `poll` takes over.
  function live(path, handle, poll) {
    var failures = 0;
    function connect() {
      var opened = 0;
      var socket;
      try {
        socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + path);
      } catch (e) { poll(); return; }
      socket.onopen = function () { opened = Date.now(); };
      socket.onmessage = function (e) {
        var data;
        try { data = JSON.parse(e.data); } catch (x) { return; }
        if (data) handle(data, function () { socket.onclose = null; socket.close(1000); });
      };
      socket.onclose = function (e) {
        failures = opened && Date.now() - opened > 30000 ? 1 : failures + 1;
        if (failures >= MAX_FAILURES || e.code === 4403 || e.code === 4404 || e.code === 4400) { poll(); return; }
        setTimeout(connect, Math.min(15000, 500 * Math.pow(2, failures)) * (0.75 + Math.random() / 2));
      };
    }
    if ("WebSocket" in window) connect(); else poll();
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
    live(lobby.getAttribute("data-socket-path"), showLists, function () {
      setInterval(function () { getJSON(url, showLists); }, POLL_MS);
    });
  }

  var table = document.getElementById("lobby-table");
  if (table) {
    var tableUrl = table.getAttribute("data-live-url");
    var shown = document.getElementById("table-status").textContent;
    var freeShown = document.getElementById("free-seats").textContent;
    var timer = null;
    // Returns whether the page is leaving (to the match, or to be drawn again).
    var showTable = function (t, stop) {
      if (t.status === "started" && t.seated && t.match_url) {
        clearInterval(timer);
        if (stop) stop();
        window.location.assign(t.match_url);
      } else if (t.status !== shown || String(t.free_seats) !== freeShown) {
        clearInterval(timer);
        if (stop) stop();
        window.location.reload(); // who sits there and what one may do have changed: the server draws it again
      }
    };
    live(table.getAttribute("data-socket-path"), showTable, function () {
      timer = setInterval(function () { getJSON(tableUrl, function (t) { showTable(t); }); }, POLL_MS);
    });
  }
})();
