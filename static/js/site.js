// Small progressive enhancements; every page works without them.

// A refused move answers 4xx with the table as it stands and the reason
// (games.views._refuse marks it): swap it in like any other answer.
document.addEventListener("htmx:beforeSwap", (event) => {
  const xhr = event.detail.xhr;
  if (xhr.status >= 400 && xhr.status < 500 && xhr.getResponseHeader("X-Table-Refused")) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
  // An answer older than the table shown (a frame overtook it) is dropped.
  if (event.detail.shouldSwap && olderThanShown(xhr.responseText)) event.detail.shouldSwap = false;
  // A table answer is morphed here, by itself: htmx would resolve the swap
  // style and the morph extension from the form that asked, which a frame
  // may have morphed away meanwhile (then the answer landed inside the table).
  const target = event.detail.target;
  if (event.detail.shouldSwap && target && target.id === "table" && window.Idiomorph) {
    event.detail.shouldSwap = false;
    window.Idiomorph.morph(target, xhr.responseText, { morphStyle: "outerHTML" });
    const table = document.getElementById("table");
    window.htmx.process(table);
    table.dispatchEvent(new CustomEvent("table:morphed", { bubbles: true }));
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

// Tables carry their game and version; never let an older table replace a
// newer one: a socket frame can come after the answer to one's own move, and
// the answer can come after the frame of the next player's move.
function olderThanShown(html) {
  const match = /data-game="(\d+)" data-version="(\d+)"/.exec(html || "");
  const current = document.getElementById("table");
  if (!match || !current) return false;
  const [game, version] = [Number(match[1]), Number(match[2])];
  const [shownGame, shownVersion] = [Number(current.dataset.game || 0), Number(current.dataset.version || 0)];
  return game < shownGame || (game === shownGame && version < shownVersion);
}

document.addEventListener("htmx:wsBeforeMessage", (event) => {
  if (olderThanShown(event.detail.message)) event.preventDefault();
});

// Frames morph the table (idiomorph): what the reader opened stays open, and
// what they closed stays closed; what the page's scripts decide (data-shown:
// whether a hand's result is still on the felt) is theirs to keep.
if (window.Idiomorph) {
  window.Idiomorph.defaults.callbacks.beforeAttributeUpdated = (name, element) =>
    !(name === "open" && element.tagName === "DETAILS") && name !== "data-shown";
}

// Tables pushed over the socket are rendered by the worker, without the
// reader's CSRF token in their forms (htmx sends it as a header, from the
// body's hx-headers). Should such a form be submitted natively (a click in
// the instant after a frame replaced it, before htmx bound it), add the token.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") return;
  if (form.querySelector("input[name=csrfmiddlewaretoken]")) return;
  let token = "";
  try {
    token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  } catch (error) {
    return;
  }
  if (!token) return;
  const input = document.createElement("input");
  input.type = "hidden";
  input.name = "csrfmiddlewaretoken";
  input.value = token;
  form.append(input);
}, true);

// A table's invitation link is rendered as a path (frames come from the
// worker, which knows no request): show it whole, on the address this page
// is served from, wherever the site runs.
function showInvitationLinks(root) {
  for (const a of (root || document).querySelectorAll("a.invite-link")) {
    if (a.textContent !== a.href) a.textContent = a.href;
  }
}
// Whatever redraws the table (a page's swap, a socket's morph), the links stay whole.
document.addEventListener("DOMContentLoaded", () => {
  showInvitationLinks();
  new MutationObserver(() => showInvitationLinks()).observe(document.body, { childList: true, subtree: true, characterData: true });
});
