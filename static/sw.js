// The scorekeeper's service worker: static files from the cache, pages from the network.
// Nothing is ever written offline: with no connection a page shows the offline notice,
// and every hand recorded so far is safe on the server.
var CACHE = "scorekeeper-static-v1";
var OFFLINE = "/offline";

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.add(OFFLINE); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== CACHE; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;  // changes go to the server or nowhere
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) {
    // Only what the server calls immutable (a fingerprinted address) is kept, and only
    // the newest version of each file: the cache never serves a stale stylesheet.
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (hit) {
        return hit || fetch(request).then(function (response) {
          var rules = response.headers.get("Cache-Control") || "";
          if (response.ok && rules.indexOf("immutable") !== -1) {
            forgetOlder(cache, url).then(function () { cache.put(request, response.clone()); });
          }
          return response;
        });
      });
    }));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).then(function (response) {
      // The notice kept for offline speaks the language the pages speak now.
      if (response.ok) event.waitUntil(caches.open(CACHE).then(function (cache) {
        return cache.add(OFFLINE);
      }).catch(function () {}));
      return response;
    }).catch(function () {
      return caches.match(OFFLINE);
    }));
  }
});

function forgetOlder(cache, url) {
  return cache.keys().then(function (requests) {
    return Promise.all(requests.filter(function (old) {
      var oldUrl = new URL(old.url);
      return oldUrl.pathname === url.pathname && oldUrl.search !== url.search;
    }).map(function (old) { return cache.delete(old); }));
  });
}
