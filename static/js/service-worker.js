// Registers the site's service worker (/sw.js: web push, and the offline
// page when a page cannot be loaded) on every page, once the page has loaded.
// A browser without service workers, or a page not in a secure context,
// simply goes without.
(() => {
  const script = document.currentScript;
  const url = (script && script.dataset.worker) || "/sw.js";
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(() => {});
  });
})();
