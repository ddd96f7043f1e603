// The browser's time zone, told to the site (accounts.timezones): a cookie
// "tz" that the server reads on every request and keeps in a signed-in
// player's profile the first time. When this page was the first visit's (no
// cookie yet) and shows times, it is loaded once more to show them in that zone.
(() => {
  const shown = (document.currentScript && document.currentScript.dataset.zone) || "";
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    return;
  }
  if (!/^[A-Za-z0-9_+/-]{1,64}$/.test(zone)) return; // a zoneinfo name, cookie-safe as it is
  const current = document.cookie.split("; ").find((c) => c.startsWith("tz="));
  const told = current ? current.slice(3) : "";
  if (told === zone) return;
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `tz=${zone}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
  const kept = document.cookie.split("; ").some((c) => c === `tz=${zone}`);
  if (!told && kept && zone !== "UTC" && shown !== zone && document.querySelector("time[datetime]")) {
    location.reload();
  }
})();
