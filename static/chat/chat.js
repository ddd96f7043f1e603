// The table chat (templates/chat/). Every form works without this file (plain
// posts come back to the table); it adds:
// - refusals (4xx marked X-Chat-Refused) shown next to the form that asked;
// - the text field emptied (and kept focused) once its message is sent;
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
        ? { hour: "2-digit", minute: "2-digit" }
        : { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" };
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
    if (form.id === "chat-form") {
      form.reset();
      const input = document.getElementById("chat-text");
      if (input) input.focus();
    } else if (form.classList.contains("chat-mute")) {
      // Their messages go at once; the socket no longer brings new ones.
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

  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const el = scroller();
    if (el && event.detail.target && event.detail.target.id === "chat-log") stick = atBottom(el);
  });
  document.addEventListener("htmx:oobAfterSwap", (event) => {
    if (event.detail.target && event.detail.target.closest && event.detail.target.closest("#chat")) chatChanged();
  });
  document.addEventListener("htmx:wsAfterMessage", chatChanged);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", chatChanged);
  } else {
    chatChanged();
  }
})();
