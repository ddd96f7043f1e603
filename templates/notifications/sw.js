{% load i18n %}{% translate "Cutthroat Euchre" as site_name %}// Service worker for web push: show the notification, open its table on click.
// A push carries its title and body already in the recipient's language;
// the fallback title is in the language this file was fetched in.
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
