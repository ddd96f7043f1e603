{% load i18n %}{% translate "Cutthroat Euchre" as site_name %}// The site's service worker: web push (show the notification, open its table
// on click) and the offline page (kept at install, shown when a page cannot
// be loaded for want of a network). A push carries its title and body already
// in the recipient's language; the fallback title and the offline page are in
// the language this file was fetched in (a new language or new static files
// make a new file, hence a new cache).
const OFFLINE_CACHE = "offline-{{ revision|escapejs }}";
const OFFLINE_URL = "{{ offline_url|escapejs }}";
const OFFLINE_ASSETS = [{% for url in offline_assets %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(OFFLINE_CACHE);
    await cache.addAll(OFFLINE_ASSETS.map((url) => new Request(url, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("offline-") && name !== OFFLINE_CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// Pages come from the network as always; only when it fails does a page
// (a GET navigation) get the offline page, and the offline page its files.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(async () => {
      const cache = await caches.open(OFFLINE_CACHE);
      return (await cache.match(OFFLINE_URL)) || Response.error();
    }));
  } else if (url.origin === self.location.origin && OFFLINE_ASSETS.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(async () => {
      const cache = await caches.open(OFFLINE_CACHE);
      return (await cache.match(url.pathname)) || Response.error();
    }));
  }
});

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data ? event.data.text() : "" }; }
  const title = data.title || "{{ site_name|escapejs }}";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    data: { url: data.url || "/" },
    tag: data.url || undefined,
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) {
      if (client.url === url && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  })());
});
