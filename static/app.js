// Every htmx request carries the CSRF token from the page's meta tag.
document.addEventListener("htmx:configRequest", function (event) {
  var meta = document.querySelector('meta[name="csrf-token"]');
  if (meta && event.detail.verb !== "get") {
    event.detail.headers["X-CSRFToken"] = meta.content;
  }
});

// Times written in UTC by the server are shown in the phone's own time zone.
function localTimes(root) {
  root.querySelectorAll("time.local-time[datetime]").forEach(function (element) {
    var moment = new Date(element.getAttribute("datetime"));
    if (isNaN(moment)) return;
    element.textContent = moment.toLocaleString(document.documentElement.lang || undefined,
      {dateStyle: "short", timeStyle: "short"});
  });
}
document.addEventListener("DOMContentLoaded", function () { localTimes(document); });
document.addEventListener("htmx:afterSwap", function (event) { localTimes(event.detail.target); });
