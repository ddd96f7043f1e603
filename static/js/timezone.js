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

// The profile's zone menu (templates/accounts/profile.html): the search box
// keeps only the cities (or whole countries) whose names hold what is typed.
document.addEventListener("input", (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || !box.dataset.zoneFilter) return;
  const menu = document.getElementById(box.dataset.zoneFilter);
  if (!menu) return;
  const words = box.value.trim().toLocaleLowerCase();
  let first = null;
  for (const option of menu.querySelectorAll("option")) {
    const group = option.parentElement instanceof HTMLOptGroupElement ? option.parentElement.label : "";
    const text = `${option.textContent} ${group} ${option.value.replace(/_/g, " ")}`.toLocaleLowerCase();
    option.hidden = Boolean(words) && !text.includes(words);
    if (!option.hidden && first === null) first = option;
  }
  for (const group of menu.querySelectorAll("optgroup")) {
    group.hidden = ![...group.children].some((o) => !o.hidden);
  }
  if (first && menu.selectedOptions[0] && menu.selectedOptions[0].hidden) first.selected = true;
});
