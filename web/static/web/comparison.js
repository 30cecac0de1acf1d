// The live comparison page: while the comparison runs, read its state every few seconds and redraw the summary,
// the LLR chart and the pairs table from what the server drew (web/comparisons.py: comparison_state).
(function () {
  "use strict";
  var root = document.getElementById("comparison");
  if (!root || !root.dataset.running) { return; }
  var url = root.dataset.stateUrl;
  function refresh() {
    fetch(url, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) { setTimeout(refresh, 5000); return; }
        var s = data.state;
        document.getElementById("chart").innerHTML = data.chart;
        document.getElementById("pairs").innerHTML = data.rows;
        document.getElementById("summary").innerHTML = data.summary;
        if (s.status === "running") { setTimeout(refresh, 2000); } else { window.location.reload(); }
      })
      .catch(function () { setTimeout(refresh, 5000); });
  }
  setTimeout(refresh, 2000);
}());
