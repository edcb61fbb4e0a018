// The scorekeeper's service worker: static files from the cache, pages from the network.
// With no connection, a game page this phone opened is shown as it was last seen (the
// page keeps its copy fresh after every change, app.js), and the hands kept on the phone
// are played on it; any other page shows the offline notice. Nothing is written here.
var CACHE = "scorekeeper-static-v1";
var PAGES = "scorekeeper-pages-v1";
// Addresses are the app's own, under wherever it is served (a URL prefix too).
var BASE = new URL(self.registration.scope).pathname.replace(/\/$/, "");
var OFFLINE = BASE + "/offline";
var GAME = "^" + BASE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "/games/\\d+";
var GAME_PAGE = new RegExp(GAME + "$");
var GAME_WORDS = new RegExp(GAME + "/offline-words$");

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.add(OFFLINE); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== CACHE && name !== PAGES; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;  // changes go to the server or nowhere
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf(BASE + "/static/") === 0) {
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
  } else if (GAME_WORDS.test(url.pathname)) {
    // What a game page says when it plays on: from the server, else (no answer, or a
    // proxy's error with the app away) as last had, for a page come back to as the
    // connection went.
    var kept = function (answer) {
      return keptCopy(url).then(function (words) {
        return words || answer || Promise.reject(new Error("no words kept"));
      });
    };
    event.respondWith(fetch(request).then(function (response) {
      if (!response.ok) return kept(response);
      keep(event, url, response);
      return response;
    }, function () { return kept(); }));
  } else if (request.mode === "navigate") {
    var game = GAME_PAGE.test(url.pathname);
    event.respondWith(fetch(request).then(function (response) {
      // The notice kept for offline speaks the language the pages speak now.
      if (response.ok) event.waitUntil(caches.open(CACHE).then(function (cache) {
        return cache.add(OFFLINE);
      }).catch(function () {}));
      if (response.ok && game && !response.redirected) keep(event, url, response);  // the game page itself
      return response;
    }).catch(function () {
      var kept = game ? keptCopy(url) : Promise.resolve(undefined);
      return kept.then(function (page) { return page || caches.match(OFFLINE); });
    }));
  }
});

function keptCopy(url) {
  return caches.open(PAGES).then(function (cache) { return cache.match(url.pathname); });
}

function keep(event, url, response) {
  var copy = response.clone();
  event.waitUntil(caches.open(PAGES).then(function (cache) {
    return cache.put(url.pathname, copy);
  }).catch(function () {}));
}

function forgetOlder(cache, url) {
  return cache.keys().then(function (requests) {
    return Promise.all(requests.filter(function (old) {
      var oldUrl = new URL(old.url);
      return oldUrl.pathname === url.pathname && oldUrl.search !== url.search;
    }).map(function (old) { return cache.delete(old); }));
  });
}
