// The scorekeeper's service worker: static files from the cache, pages from the network.
// With no connection, a game page this phone opened is shown as it was last seen (the
// page sends its copy after every change, offline.js), and the hands kept on the phone
// are played on it; any other page shows the offline notice. No hand is written here.
// A classic worker, not a module: it imports nothing, and Firefox runs module workers
// only since version 147 (2026).
var CACHE = "scorekeeper-static-v1";
var PAGES = "scorekeeper-pages-v1";
// The game pages kept, and the words of each: those of the last games opened, the
// oldest dropped first. A phone following its club for years never fills its storage.
var KEPT_PAGES = 10;
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
  event.waitUntil(keepPage(url, response.clone()));
}

// Kept last, and so dropped last: a cache lists its keys in the order they were put, a
// key put again moving to the end.
function keepPage(url, response) {
  var kind = GAME_WORDS.test(url.pathname) ? GAME_WORDS : GAME_PAGE;
  return caches.open(PAGES).then(function (cache) {
    return cache.put(url.pathname, response).then(function () { return cache.keys(); })
      .then(function (requests) {
        var kept = requests.filter(function (old) { return kind.test(new URL(old.url).pathname); });
        return Promise.all(kept.slice(0, -KEPT_PAGES).map(function (old) { return cache.delete(old); }));
      });
  }).catch(function () {});
}

// The game page as the phone shows it now, sent by the page after each change, kept in
// place of the server's copy with the headers the server sends with it (its security
// policy): the kept copy's, or, for a page kept before this worker looked after it,
// asked of the server.
var KEPT_HEADERS = ["Content-Type", "Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"];
self.addEventListener("message", function (event) {
  var sent = event.data || {};
  var url = new URL(String(sent.page), self.location.href);
  if (url.origin !== self.location.origin || !GAME_PAGE.test(url.pathname) || typeof sent.html !== "string") return;
  event.waitUntil(keptCopy(url).then(function (before) {
    return before || fetch(url.pathname, {method: "HEAD", credentials: "same-origin"});
  }).then(function (before) {
    if (!before.ok) return;
    var headers = new Headers();
    KEPT_HEADERS.forEach(function (name) {
      if (before.headers.get(name)) headers.set(name, before.headers.get(name));
    });
    return keepPage(url, new Response(sent.html, {headers: headers}));
  }).catch(function () {}));
});

function forgetOlder(cache, url) {
  return cache.keys().then(function (requests) {
    return Promise.all(requests.filter(function (old) {
      var oldUrl = new URL(old.url);
      return oldUrl.pathname === url.pathname && oldUrl.search !== url.search;
    }).map(function (old) { return cache.delete(old); }));
  });
}
