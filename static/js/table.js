// The card table by keyboard and screen reader. Every move works without
// this file (the forms post); it adds:
// - the announcements: each frame carries template.table-news (the last
//   moves, each keyed, and whose turn it is); moves not said yet and what
//   comes next are added to #table-announcer, one lasting aria-live region
//   outside the table that frames never replace;
// - focus to your hand when it becomes your turn (or the page opens at your
//   turn), unless you are typing;
// - arrow keys between your cards and buttons, and 1-5 for the n-th card.
(() => {
  const announcer = document.getElementById("table-announcer");
  let heard = null; // the version whose news was last said
  const said = new Set(); // the moves said (or read with the page)
  let myTurnBefore = false;

  const typing = () => {
    const el = document.activeElement;
    return !!el && !el.closest("#act-form")
      && (el.matches("input, textarea, select") || el.isContentEditable);
  };

  const moves = () => [...document.querySelectorAll(
    "#act-form button:not([hidden]), #act-form input[type=checkbox]",
  )];

  const focusHand = () => {
    const first = document.querySelector(
      "#act-form .hand button[name=action], #act-form input[type=checkbox], #act-form button[name=action]",
    );
    if (first) first.focus({ preventScroll: false });
  };

  const say = (lines) => {
    if (!announcer || !lines.length) return;
    for (const text of lines) {
      const p = document.createElement("p");
      p.textContent = text;
      announcer.append(p);
    }
    while (announcer.childElementCount > 8) announcer.firstElementChild.remove();
  };

  const tableChanged = () => {
    const news = document.querySelector("template.table-news");
    if (news) {
      const version = news.dataset.version;
      const lines = [];
      // Moves not said yet (also those of a table this page never got),
      // then what comes next; the page's first table is read with the page.
      for (const move of news.content.querySelectorAll("[data-move]")) {
        if (said.has(move.dataset.move)) continue;
        said.add(move.dataset.move);
        if (heard !== null) lines.push(...[...move.querySelectorAll("p")].map((p) => p.textContent));
      }
      if (heard !== null && version !== heard) {
        lines.push(...[...news.content.querySelectorAll("[data-now] p")].map((p) => p.textContent));
      }
      const hint = document.querySelector(".hint-box[data-hint]");
      if (hint && !said.has(`hint-${hint.dataset.hint}`)) {
        said.add(`hint-${hint.dataset.hint}`);
        lines.push(...[...hint.querySelectorAll("p")].map((p) => p.textContent));
      }
      say(lines);
      heard = version;
    }
    const myTurn = !!document.querySelector("#act-form button[name=action], #act-form input[type=checkbox]");
    // Also when the focused card or button went with the move (it stays
    // your turn: the dealer's pick-up after their call, a new lead).
    const lost = !document.activeElement || document.activeElement === document.body;
    if (myTurn && (!myTurnBefore || lost) && !typing()) focusHand();
    myTurnBefore = myTurn;
  };

  for (const name of ["htmx:afterSwap", "htmx:oobAfterSwap", "htmx:wsAfterMessage", "table:morphed"]) {
    document.addEventListener(name, tableChanged);
  }
  tableChanged();

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const inForm = document.activeElement && document.activeElement.closest("#act-form");
    const rtl = document.documentElement.dir === "rtl";
    const step = { ArrowRight: rtl ? -1 : 1, ArrowDown: 1, ArrowLeft: rtl ? 1 : -1, ArrowUp: -1 }[event.key];
    if (step && inForm) {
      const all = moves();
      const i = all.indexOf(document.activeElement);
      if (i >= 0 && all.length) {
        all[(i + step + all.length) % all.length].focus();
        event.preventDefault();
      }
      return;
    }
    if (/^[1-9]$/.test(event.key) && !typing()) {
      const cards = document.querySelectorAll("#act-form .hand .card-button, #act-form .discard .card-button");
      const card = cards[Number(event.key) - 1];
      if (!card) return;
      event.preventDefault();
      card.focus();
      if (card.getAttribute("aria-disabled") !== "true") card.click();
    }
  });
})();
