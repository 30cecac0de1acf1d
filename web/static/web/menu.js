// The site's menu on a phone: the header's links fold under one button, so they do not wrap to four lines above
// every page. Without this script the button stays hidden and the links stay listed (site.css folds only .js-menu).
(function () {
  "use strict";
  var button = document.querySelector(".menu-toggle");
  var nav = document.getElementById("site-nav");
  if (!button || !nav) { return; }
  document.documentElement.classList.add("js-menu");
  button.hidden = false;
  function setOpen(open) {
    nav.classList.toggle("open", open);
    button.setAttribute("aria-expanded", open ? "true" : "false");
  }
  button.addEventListener("click", function () { setOpen(!nav.classList.contains("open")); });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && nav.classList.contains("open")) { setOpen(false); button.focus(); }
  });
})();
