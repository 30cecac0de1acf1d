// The lobby without reloads: the lobby page polls its JSON view every 3 s and redraws its two lists; a table's page
// polls the table's JSON and, once the game has started, sends a seated player to the match (and updates who sits).
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

  function text(tag, content, cls) {
    var el = document.createElement(tag);
    el.textContent = content;
    if (cls) el.className = cls;
    return el;
  }

  function row(t) {
    var li = document.createElement("li");
    var a = text("a", "Table " + t.id); a.href = t.url; li.appendChild(a);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(text("span", t.game_title, "tag"));
    li.appendChild(document.createTextNode(" " + t.seats + " seats, " + t.free_seats + " free · " +
      (t.rated ? "rated" : "unrated") + (t.public ? "" : " · private") + " "));
    li.appendChild(text("span", "host: " + t.host + "; seated: " + t.players.join(", "), "who"));
    return li;
  }

  function fill(list, tables, emptyText) {
    if (!list) return;
    list.innerHTML = "";
    if (!tables.length) { list.appendChild(text("li", emptyText, "empty")); return; }
    tables.forEach(function (t) { list.appendChild(row(t)); });
  }

  var lobby = document.getElementById("my-tables");
  if (lobby) {
    var url = lobby.getAttribute("data-live-url");
    var mineList = document.getElementById("mine-list");
    var tablesList = document.getElementById("tables-list");
    // The empty-list sentences come from the page (translated there).
    var mineEmpty = mineList.querySelector(".empty") ? mineList.querySelector(".empty").textContent : "";
    var tablesEmpty = tablesList.querySelector(".empty") ? tablesList.querySelector(".empty").textContent : "";
    setInterval(function () {
      getJSON(url, function (data) {
        fill(mineList, data.mine, mineEmpty);
        fill(tablesList, data.tables, tablesEmpty);
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
