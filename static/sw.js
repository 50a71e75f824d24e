// Roundtable's service worker: keeps the app's own files so the page opens, and the demo model
// runs, with no network after the first visit. It never touches a provider's request (or any
// other origin's): only GET requests to this site are answered from the cache.
//
// The build (scripts/offline-files.mjs, a Trunk post_build hook) writes the list of files offline
// use needs and a version made from their contents in place of the two placeholders below; a new
// deploy is a new version, installed in the background and in use from the next visit.
//
// Downloaded once: the page registers this worker only once it is idle (web/src/offline.rs), by
// when it has fetched the app itself, and the install fetches the list through the browser's HTTP
// cache (the default cache mode, never `reload`): a hashed file the page already has (cached for a
// year, immutable) costs no byte on the wire, `index.html` and the demo session a revalidation.
// Files offline use does not need (the providers' schemas, the large icon) are not in the list;
// they are kept when the page first asks for them.
const VERSION = '__ROUNDTABLE_VERSION__';
const FILES = ['__ROUNDTABLE_FILES__'];
const CACHE = `roundtable-${VERSION}`;
// Where an install that replaced an older version leaves word for the page ("updated").
const META = 'roundtable-meta';
// Files whose name carries a hash of their content never change: the cache answers first.
const HASHED = /-[0-9a-f]{8,16}(_bg)?\.(js|wasm|css|svg)$/;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const old = (await caches.keys()).filter((n) => n.startsWith('roundtable-') && n !== CACHE && n !== META);
    await Promise.all(old.map((n) => caches.delete(n)));
    if (old.length) {
      const meta = await caches.open(META);
      await meta.put('updated', new Response(VERSION));
    }
    await self.clients.claim();
    for (const client of await self.clients.matchAll({ type: 'window' })) {
      if (old.length) client.postMessage({ type: 'roundtable-updated', version: VERSION });
    }
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith(HASHED.test(url.pathname) ? cacheFirst(request) : networkFirst(request));
});

async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) (await caches.open(CACHE)).put(request, response.clone());
  return response;
}

// The page and the other unhashed files (the demo session, the schemas): the network when there
// is one, so a deploy shows at once; the cache when there is none.
async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (response.ok) (await caches.open(CACHE)).put(request, response.clone());
    return response;
  } catch (offline) {
    const cached = await caches.match(request, { ignoreSearch: true })
      || (request.mode === 'navigate' ? await caches.match('./index.html') || await caches.match('./') : undefined);
    if (cached) return cached;
    throw offline;
  }
}
