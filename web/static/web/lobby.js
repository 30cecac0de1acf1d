// The lobby without reloads: the lobby page polls its JSON view every 3 s and swaps in its two lists (drawn by the
// server, in the page's language); a table's page polls the table's JSON and, once the game has started, sends a
// seated player to the match (and draws the page again when someone joins or leaves).
(function () {
  "use strict";
  var POLL_MS = 3000;

  function getJSON(url, done) {
    var xhr = new XMLHttpRequest();
    xhr.open("GET", url);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.onload = function () { if (xhr.status === 200) done(JSON.parse(xhr.responseText)); };
    xhr.send();
  }

  var lobby = document.getElementById("my-tables");
  if (lobby) {
    var url = lobby.getAttribute("data-live-url");
    var mineList = document.getElementById("mine-list");
    var tablesList = document.getElementById("tables-list");
    setInterval(function () {
      getJSON(url, function (data) {
        if (mineList.innerHTML !== data.html.mine) mineList.innerHTML = data.html.mine;
        if (tablesList.innerHTML !== data.html.tables) tablesList.innerHTML = data.html.tables;
      });
    }, POLL_MS);
  }

  var table = document.getElementById("lobby-table");
  if (table) {
    var tableUrl = table.getAttribute("data-live-url");
    var shown = document.getElementById("table-status").textContent;
    var freeShown = document.getElementById("free-seats").textContent;
    var timer = setInterval(function () {
      getJSON(tableUrl, function (t) {
        if (t.status === "started" && t.seated && t.match_url) {
          clearInterval(timer);
          window.location.assign(t.match_url);
        } else if (t.status !== shown || String(t.free_seats) !== freeShown) {
          clearInterval(timer);
          window.location.reload(); // who sits there and what one may do have changed: the server draws it again
        }
      });
    }, POLL_MS);
  }
})();
