// Every htmx request carries the CSRF token from the page's meta tag.
document.addEventListener("htmx:configRequest", function (event) {
  var meta = document.querySelector('meta[name="csrf-token"]');
  if (meta && event.detail.verb !== "get") {
    event.detail.headers["X-CSRFToken"] = meta.content;
  }
});

// Times written in UTC by the server are shown in the phone's own time zone.
// Only where the browser knows the page's language: else the server's words stay.
function localTimes(root) {
  var lang = document.documentElement.lang || "en";
  if (!window.Intl || Intl.DateTimeFormat.supportedLocalesOf([lang]).length === 0) return;
  root.querySelectorAll("time.local-time[datetime]").forEach(function (element) {
    var moment = new Date(element.getAttribute("datetime"));
    if (isNaN(moment)) return;
    element.textContent = moment.toLocaleString(lang,
      {dateStyle: "short", timeStyle: "short", calendar: "gregory"});
  });
}
document.addEventListener("DOMContentLoaded", function () { localTimes(document); });
document.addEventListener("htmx:afterSwap", function (event) { localTimes(event.detail.target); });

// Installable, with an offline notice instead of the browser's error page.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", function () { navigator.serviceWorker.register("/sw.js"); });
}
