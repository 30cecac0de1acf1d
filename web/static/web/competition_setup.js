// The organiser's tournament and ladder forms (web/competition_setup.py). Everything works without this script; with
// it, a preset fills the fields at once (without it, the preset's "Fill in" button reloads the page filled in),
// only the chosen game's options show, and only the points rows of the tables the tournament can seat.
(function () {
  "use strict";
  var form = document.querySelector("form[data-setup]");
  if (!form) return;
  var game = form.elements.game;
  var tableSize = form.elements.table_size;
  // Each game's options, one fieldset a game (web/templates/web/_game_options.html).
  function gameFieldsets() { return form.querySelectorAll("fieldset[data-game]"); }

  function showGame() {
    if (!game) return;
    gameFieldsets().forEach(function (fieldset) {
      fieldset.hidden = fieldset.getAttribute("data-game") !== game.value;
    });
  }

  function rowHasError(row) { return row.querySelector(".errorlist") !== null; }

  // Tables of the chosen size or one fewer (one more only for a field too small), in teams with partnerships.
  // The other rows are only hidden: what they hold is still sent (a preset gives every size its points).
  function showPoints() {
    var rows = form.querySelectorAll("fieldset[data-competitors]");
    if (!rows.length || !tableSize) return;
    var size = parseInt(tableSize.value, 10);
    var partners = form.elements.option_diamonds_partnerships;
    var low, high;
    if (partners && partners.checked && game && game.value === "diamonds") {
      low = 2; high = 3;
    } else if (size > 0) {
      low = size - 1; high = size + 1;
    } else {
      low = 0; high = 99;
    }
    rows.forEach(function (row) {
      var n = parseInt(row.getAttribute("data-competitors"), 10);
      row.hidden = (n < low || n > high) && !rowHasError(row);
    });
  }

  function fill(fields) {
    Object.keys(fields).forEach(function (name) {
      var element = form.elements[name];
      if (!element || element.disabled) return;
      var value = fields[name];
      if (element.type === "checkbox") element.checked = Boolean(value);
      else element.value = value === null || value === undefined ? "" : String(value);
    });
  }

  var data = document.getElementById("presets-data");
  var select = document.getElementById("preset");
  if (data && select) {
    var presets = JSON.parse(data.textContent);
    var button = document.querySelector("[data-preset-button]");
    if (button) button.hidden = true;  // choosing fills the form at once
    var status = document.getElementById("preset-status");
    select.addEventListener("change", function () {
      var chosen = presets.filter(function (p) { return p.key === select.value; })[0];
      if (!chosen) return;
      fill(chosen.fields);
      showGame();
      showPoints();
      if (status) status.textContent = status.getAttribute("data-filled") + " " + chosen.label;
    });
  }
  form.addEventListener("change", function (event) {
    var name = event.target && event.target.name;
    if (name === "game") showGame();
    if (name === "game" || name === "table_size" || name === "option_diamonds_partnerships") showPoints();
  });
  form.addEventListener("input", function (event) {
    if (event.target && event.target.name === "table_size") showPoints();
  });
  showGame();
  showPoints();
})();
