// The service worker: keeps the pages' own files so an installed app opens without a connection (a
// score-pad table then draws its last state and queues what is entered; see table.js). Pages and files
// come from the network when it answers, so an update is seen at once; the cache is the fallback. Game
// data (/api, the WebSocket) is never cached here.

const CACHE = "kniffel-v8";
const FILES = [
  "/",
  "/table",
  "/static/app.css",
  "/static/home.js",
  "/static/table.js",
  "/static/dice.js",
  "/static/dom.js",
  "/static/i18n.js",
  "/static/ask.js",
  "/static/chances.js",
  "/static/storage.js",
  "/static/record.js",
  "/static/recordview.js",
  "/static/analysis.js",
  "/static/build.js",
  "/static/review.js",
  "/static/seats.js",
  "/analysis",
  "/static/trainer.js",
  "/trainer",
  "/words/de.json",
  "/static/icon.svg",
  "/static/icon-192.png",
  "/static/icon-512.png",
  "/manifest.webmanifest",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

// Every table (/g/ID) is the same page: the cached copy of /table stands in for any of them.
function cacheKey(url) {
  return url.pathname.startsWith("/g/") ? "/table" : url.pathname;
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  const key = cacheKey(url);
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok && (FILES.includes(key) || key === "/table")) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() => caches.match(key).then((cached) => cached || Response.error())),
  );
});
