// The table chat (templates/chat/). Every form works without this file (plain
// posts come back to the table; with htmx the chat's forms send over the
// table's socket, ws-send); it adds:
// - refusals (4xx marked X-Chat-Refused) shown next to the form that asked;
// - the text field emptied once the socket brings its message back (the
//   frame marks #chat-error data-sent="text"), and a second Enter before
//   that is not sent again;
// - a muted player's messages taken off the page at once;
// - times in the reader's own time zone, the log kept scrolled to the newest
//   message (unless the reader scrolled up), the announcer kept short.
(() => {
  const scroller = () => document.querySelector("#chat .chat-scroll");
  let stick = true; // the log was at its bottom before the last change

  const atBottom = (el) => el.scrollHeight - el.scrollTop - el.clientHeight < 24;

  const localTimes = () => {
    const lang = document.documentElement.lang || undefined;
    const today = new Date().toDateString();
    for (const t of document.querySelectorAll("time.chat-time:not([data-local])")) {
      const when = new Date(t.getAttribute("datetime"));
      if (Number.isNaN(when.getTime())) continue;
      const options = when.toDateString() === today
        ? { hour: "numeric", minute: "2-digit" }
        : { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" };
      t.textContent = when.toLocaleString(lang, options);
      t.dataset.local = "1";
    }
  };

  const chatChanged = () => {
    localTimes();
    const announcer = document.getElementById("chat-announcer");
    while (announcer && announcer.childElementCount > 5) announcer.firstElementChild.remove();
    const el = scroller();
    if (el && stick) el.scrollTop = el.scrollHeight;
  };

  document.addEventListener("scroll", (event) => {
    if (event.target === scroller()) stick = atBottom(event.target);
  }, true);

  document.addEventListener("htmx:beforeSwap", (event) => {
    const xhr = event.detail.xhr;
    if (xhr.status >= 400 && xhr.status < 500 && xhr.getResponseHeader("X-Chat-Refused")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt;
    if (!(form instanceof HTMLFormElement) || !event.detail.successful) return;
    if (form.classList.contains("chat-mute") || form.classList.contains("chat-block")) {
      // Muted or blocked, their messages go at once; the socket no longer brings new ones.
      for (const li of document.querySelectorAll(`#chat-log li[data-sender="${form.dataset.sender}"]`)) {
        li.remove();
      }
      // The focused button went with them: the reader goes on from the text field.
      const next = document.getElementById("chat-text") || document.getElementById("chat-heading");
      if (next) {
        if (next.tagName === "H2") next.setAttribute("tabindex", "-1");
        next.focus();
      }
    } else if (form.classList.contains("chat-report")) {
      const details = form.closest("details");
      if (details) {
        details.open = false;
        details.querySelector("summary").focus();
      }
    }
  });

  // A typed message is on its way until the socket answers (or 5 s pass).
  let sending = 0;
  document.addEventListener("htmx:wsConfigSend", (event) => {
    if (event.target.id !== "chat-form") return;
    if (Date.now() - sending < 5000) {
      event.preventDefault();
      if (event.detail.triggeringEvent) event.detail.triggeringEvent.preventDefault();
      return;
    }
    sending = Date.now();
  });

  const answered = (box) => {
    sending = 0;
    if (box.dataset.sent !== "text") return;
    const form = document.getElementById("chat-form");
    if (!form) return;
    const input = document.getElementById("chat-text");
    const wasHere = !document.activeElement || document.activeElement === document.body
      || form.contains(document.activeElement);
    form.reset();
    if (input && wasHere) input.focus();
  };

  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const el = scroller();
    if (el && event.detail.target && event.detail.target.id === "chat-log") stick = atBottom(el);
  });
  // Sent on each swapped-in element (an outerHTML swap's old target is gone by then).
  document.addEventListener("htmx:oobAfterSwap", (event) => {
    const el = event.target;
    if (!(el instanceof Element) || !el.closest("#chat")) return;
    if (el.id === "chat-error") answered(el);
    chatChanged();
  });
  document.addEventListener("htmx:wsAfterMessage", chatChanged);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", chatChanged);
  } else {
    chatChanged();
  }
})();
