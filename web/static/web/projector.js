// The projector refreshes itself: every few seconds it fetches its own page and swaps in the new content, so the
// screen never flashes white and a browser in full-screen mode stays there (a reload would leave it).
(function () {
  "use strict";
  var root = document.getElementById("projector");
  if (!root) { return; }
  var seconds = parseInt(root.getAttribute("data-refresh-seconds"), 10) || 15;
  function refresh() {
    if (document.hidden) { return; }
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("projector");
        if (fresh) { root.innerHTML = fresh.innerHTML; }
      })
      .catch(function () { /* the venue's network blinked: the next tick tries again */ });
  }
  window.setInterval(refresh, seconds * 1000);
})();
