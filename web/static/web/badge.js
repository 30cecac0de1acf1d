// The header's unread-notifications badge: asks the server every few seconds, not while the tab is hidden.
(function () {
  "use strict";
  var link = document.querySelector("[data-badge-url]");
  if (!link) return;
  // The count beside the Notifications link, and its copy on the phone's Menu button (the link is folded there).
  var badges = document.querySelectorAll("[data-badge]");
  var url = link.getAttribute("data-badge-url");
  var every = Math.max(1, parseInt(link.getAttribute("data-poll-seconds"), 10) || 10) * 1000;
  var timer = null;

  function show(count) {
    for (var i = 0; i < badges.length; i++) {
      badges[i].textContent = String(count);
      badges[i].hidden = count === 0;
      badges[i].setAttribute("aria-label", count + " unread");
    }
  }

  function poll() {
    timer = null;
    if (document.hidden) return; // resumed by visibilitychange
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) { if (body && typeof body.unread === "number") show(body.unread); })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(schedule);
  }

  function schedule() {
    if (timer === null && !document.hidden) timer = window.setTimeout(poll, every);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) {
      if (timer !== null) { window.clearTimeout(timer); timer = null; }
    } else if (timer === null) {
      poll();
    }
  });
  schedule();
})();
