// Browser notifications: subscribe this browser with the site's VAPID key and
// tell the server (POST JSON, CSRF header). Only where the Push API exists.
// Texts in the page's language: Django's JavaScript catalog (/jsi18n/, loaded
// first by base.html) defines gettext; the server's refusals come translated.
(function () {
  const gettext = window.gettext || ((text) => text);
  const on = document.getElementById("push-subscribe");
  const off = document.getElementById("push-unsubscribe");
  const status = document.getElementById("push-status");
  if (!on || !off) return;
  const idle = status.textContent; // "Allow this browser ...", as the page says it
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    status.textContent = gettext("This browser cannot show notifications from the site.");
    return;
  }
  const csrf = () => JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  const keyBytes = (base64) => {
    const padded = (base64 + "=".repeat((4 - (base64.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  };
  const tell = (body) => fetch(on.dataset.endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  const show = (subscribed) => {
    on.hidden = subscribed;
    off.hidden = !subscribed;
    status.textContent = subscribed
      ? gettext("This browser shows notifications when it is your turn.")
      : idle;
  };
  // This account's endpoints: a browser subscription the server no longer has
  // (deleted at log-out, or another account's) shows as off.
  const known = JSON.parse((document.getElementById("push-endpoints") || {}).textContent || "[]");
  let registration = null;
  navigator.serviceWorker.register(on.dataset.worker, { scope: "/" }).then(async (reg) => {
    registration = reg;
    const sub = await reg.pushManager.getSubscription();
    show(Boolean(sub) && known.includes(sub.endpoint));
  }).catch(() => { status.textContent = gettext("Browser notifications are not available here."); });
  const subscribe = () => registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(on.dataset.vapidKey),
  });
  const refusal = async (response) => {
    try { return (await response.json()).error || ""; } catch (e) { return ""; }
  };

  on.addEventListener("click", async () => {
    if (!registration) return;
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        status.textContent = gettext("Notifications are blocked for this site in the browser's settings.");
        return;
      }
      let sub = await subscribe();
      let response = await tell(sub.toJSON());
      if (response.status === 409) {
        // Another account registered this browser's subscription: make a new one.
        await sub.unsubscribe();
        sub = await subscribe();
        response = await tell(sub.toJSON());
      }
      if (!response.ok) {
        status.textContent = (await refusal(response)) || gettext("Could not turn on browser notifications.");
        return;
      }
      known.push(sub.endpoint);
      show(true);
      off.focus();
    } catch (e) {
      status.textContent = gettext("Could not turn on browser notifications.");
    }
  });
  off.addEventListener("click", async () => {
    const sub = registration && (await registration.pushManager.getSubscription());
    if (sub) {
      await tell({ endpoint: sub.endpoint, delete: true });
      await sub.unsubscribe();
    }
    show(false);
    on.focus();
  });
})();
