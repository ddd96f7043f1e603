// Small progressive enhancements; every page works without them.

// A refused move answers 4xx with the table as it stands and the reason
// (games.views._refuse marks it): swap it in like any other answer.
document.addEventListener("htmx:beforeSwap", (event) => {
  const xhr = event.detail.xhr;
  if (xhr.status >= 400 && xhr.status < 500 && xhr.getResponseHeader("X-Table-Refused")) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

document.addEventListener("htmx:responseError", (event) => {
  // The page's language: Django's JavaScript catalog (/jsi18n/, loaded first)
  // defines gettext and interpolate; should it be missing, English.
  const gettext = window.gettext || ((text) => text);
  const interpolate = window.interpolate
    || ((format, values) => format.replace(/%\((\w+)\)s/g, (all, name) => String(values[name])));
  const box = document.getElementById("messages");
  if (!box) return;
  const p = document.createElement("p");
  p.className = "message error";
  p.setAttribute("role", "alert");
  const xhr = event.detail.xhr;
  const plain = (xhr.getResponseHeader("Content-Type") || "").startsWith("text/plain");
  p.textContent = plain && xhr.responseText
    ? xhr.responseText
    : interpolate(
      gettext("The server could not complete that request (%(status)s). Please try again."),
      { status: xhr.status },
      true,
    );
  box.replaceChildren(p);
});

// Websocket frames carry the game version; never let an older frame replace a
// newer table (a frame can arrive after the response to one's own move).
document.addEventListener("htmx:wsBeforeMessage", (event) => {
  const match = /data-game="(\d+)" data-version="(\d+)"/.exec(event.detail.message || "");
  const current = document.getElementById("table");
  if (!match || !current) return;
  const [game, version] = [Number(match[1]), Number(match[2])];
  const [shownGame, shownVersion] = [Number(current.dataset.game || 0), Number(current.dataset.version || 0)];
  if (game < shownGame || (game === shownGame && version < shownVersion)) {
    event.preventDefault();
  }
});
