// The card table in the browser. Every move works without this file (the
// forms post, the server draws each table); it adds:
// - motion: a played card travels from its player (yours from your hand) to
//   its place in the trick; a won trick gathers to its winner; a new hand is
//   dealt. Web Animations only, never waited on: input is taken at once, and
//   a table that arrives mid-animation finishes it first. With
//   prefers-reduced-motion the cards just appear;
// - the hand's result on the felt stays at least 4 s in a live game (from the
//   moment it shows), or until "Continue"; at a by-turns table until then;
// - the tab's title says when it is your turn;
// - the announcements: each frame carries template.table-news (the last
//   moves, each keyed, and whose turn it is); moves not said yet and what
//   comes next are added to #table-announcer, one lasting aria-live region
//   outside the table that frames never replace;
// - a hint a worker worked out (it comes over the socket into #hint-inbox)
//   shown in the table of the game and version it was asked at, and said;
// - focus to your hand when it becomes your turn, unless you are typing;
// - arrow keys among the cards you may play and the buttons (in the order
//   they are drawn), and 1-5 for the n-th card.
(() => {
  const announcer = document.getElementById("table-announcer");
  const still = window.matchMedia("(prefers-reduced-motion: reduce)");
  const RESULT_MS = 4000; // a live game's hand result shows at least this long
  const TRAVEL_MS = 300;
  const GATHER_AFTER_MS = 700;
  let heard = null; // the version whose news was last said
  const said = new Set(); // the moves said (or read with the page)
  let myTurnBefore = false;
  let handRects = new Map(); // card code -> where it was drawn in your hand
  const seenInTrick = new Set(); // "hand/card" of trick cards already on the table
  let shownHand = null; // the felt's data-hand last drawn
  const results = new Map(); // "game-hand" -> {since, dismissed}
  const DISMISSED = "table.results.dismissed"; // kept for the tab's life (a by-turns table is come back to)
  const dismissedKeys = () => {
    try { return JSON.parse(window.sessionStorage.getItem(DISMISSED) || "[]"); } catch (error) { return []; }
  };
  const baseTitle = document.title;

  const typing = () => {
    const el = document.activeElement;
    return !!el && !el.closest("#act-form")
      && (el.matches("input, textarea, select") || el.isContentEditable);
  };

  // What the arrow keys move among: the cards you may play, the checkboxes
  // of a choice of five, the buttons; in the order they are drawn.
  const moves = () => [...document.querySelectorAll(
    "#act-form button:not([hidden]):not([aria-disabled=true]), #act-form input[type=checkbox]",
  )].sort((a, b) => {
    const ra = a.getBoundingClientRect(); const rb = b.getBoundingClientRect();
    return Math.abs(ra.top - rb.top) > ra.height / 2 ? ra.top - rb.top : ra.left - rb.left;
  });

  const focusHand = () => {
    const first = document.querySelector(
      "#act-form .hand button[name=action], #act-form input[type=checkbox], #act-form button[name=action]",
    );
    if (first) first.focus({ preventScroll: true });
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

  const centre = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width };
  };

  const plateOf = (seat) => document.querySelector(`.felt .plate[data-seat="${seat}"]`);

  // --- motion
  const travel = (felt) => {
    const hand = felt.dataset.hand;
    const fresh = shownHand !== null; // the page's first table is drawn as it stands
    for (const slot of felt.querySelectorAll(".trick li[data-card]")) {
      const key = `${hand}/${slot.dataset.card}`;
      if (seenInTrick.has(key)) continue;
      seenInTrick.add(key);
      if (!fresh || still.matches || slot.closest(".of-last-hand")) continue;
      const card = slot.querySelector(".card");
      if (!card) continue;
      const to = centre(card);
      const from = handRects.get(slot.dataset.card) || (plateOf(slot.dataset.seat) && centre(plateOf(slot.dataset.seat)));
      if (!from) continue;
      const scale = Math.max(0.4, Math.min(1.4, from.w / to.w));
      card.animate([
        { transform: `translate(${from.x - to.x}px, ${from.y - to.y}px) scale(${handRects.has(slot.dataset.card) ? 1 : scale * 0.6})`, opacity: 0.9 },
        { transform: "none", opacity: 1 },
      ], { duration: TRAVEL_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
    }
  };

  const gather = (felt) => {
    const zone = felt.querySelector(".trick-zone.done");
    if (!zone || still.matches || zone.classList.contains("of-last-hand")) return;
    const winner = felt.querySelector(".plate.takes");
    if (!winner) return;
    const to = centre(winner);
    for (const card of zone.querySelectorAll(".trick li[data-card] .card")) {
      const from = centre(card);
      card.animate([
        { transform: "none", opacity: 1 },
        { transform: `translate(${to.x - from.x}px, ${to.y - from.y}px) scale(.3)`, opacity: 0 },
      ], { duration: 400, delay: GATHER_AFTER_MS + TRAVEL_MS, easing: "ease-in", fill: "forwards" });
    }
  };

  const deal = (felt) => {
    if (still.matches) return;
    const from = plateOf(felt.querySelector(".plate .tag.dealer")?.closest(".plate")?.dataset.seat ?? "");
    const start = from ? centre(from) : centre(felt);
    let i = 0;
    for (const card of felt.querySelectorAll(".hand .card, .fan .card")) {
      const at = centre(card);
      card.animate([
        { transform: `translate(${start.x - at.x}px, ${start.y - at.y}px) scale(.4)`, opacity: 0 },
        { transform: "none", opacity: 1 },
      ], { duration: 240, delay: 25 * i++, easing: "ease-out", fill: "backwards" });
    }
  };

  // Animations of the table before this one end now: their elements may be
  // reused by the morph, and must be drawn where the new table says.
  const finishAll = (felt) => {
    for (const animation of felt.getAnimations({ subtree: true })) {
      if (animation instanceof CSSAnimation || animation instanceof CSSTransition) continue;
      animation.cancel();
    }
  };

  const rememberHand = () => {
    handRects = new Map();
    for (const el of document.querySelectorAll("#act-form .hand [id^=card-], #act-form .hand-keep .card")) {
      const card = el.matches(".card") ? el : el.querySelector(".card");
      if (card) handRects.set(card.dataset.card, centre(card));
    }
  };

  // --- the hand's result
  const showResult = (felt) => {
    const box = felt.querySelector("#hand-result");
    if (!box) return;
    const key = box.dataset.result;
    let seen = results.get(key);
    if (!seen && dismissedKeys().includes(key)) seen = { since: 0, dismissed: true };
    if (!seen) {
      // A result is shown when the hand has just ended (nobody has bid yet);
      // opened later, a by-turns table still shows it once.
      if (!box.hasAttribute("data-fresh") && felt.dataset.live === "1") {
        box.dataset.shown = "0";
        return;
      }
      seen = { since: performance.now(), dismissed: false };
      results.set(key, seen);
      if (felt.dataset.live === "1") {
        window.setTimeout(() => {
          const now = document.querySelector("#hand-result");
          if (now && now.dataset.result === key) showResult(now.closest(".felt"));
        }, RESULT_MS + 1000);
      }
    }
    const live = felt.dataset.live === "1";
    const young = performance.now() - seen.since < RESULT_MS + 900; // 4 s, and a margin
    const visible = !seen.dismissed && (box.hasAttribute("data-fresh") || (live ? young : true));
    box.dataset.shown = visible ? "1" : "0";
  };

  document.addEventListener("click", (event) => {
    const close = event.target.closest(".result-close");
    if (!close) return;
    const box = close.closest("#hand-result");
    const seen = results.get(box.dataset.result) || { since: 0 };
    seen.dismissed = true;
    results.set(box.dataset.result, seen);
    box.dataset.shown = "0";
    try {
      window.sessionStorage.setItem(DISMISSED, JSON.stringify([...dismissedKeys(), box.dataset.result].slice(-50)));
    } catch (error) { /* private mode: the table forgets, no harm */ }
    focusHand();
  });

  // The tab's title: "● Your turn · <table>" while it is your turn.
  const title = (felt) => {
    const turn = felt && felt.dataset.turnTitle;
    document.title = turn ? `● ${turn} · ${baseTitle}` : baseTitle;
  };

  // A hint worked out by a worker arrives over the socket in #hint-inbox
  // (outside the table, which frames replace), labelled with the game and
  // version it was asked at: it replaces the Hint (or "Thinking…") button in
  // the table of that game and version only, never in a later one.
  const showHint = (table) => {
    const inbox = document.getElementById("hint-inbox");
    const status = document.getElementById("hint-status");
    if (!table || !inbox || !status || table.querySelector(".hint-box")) return;
    if (inbox.dataset.for !== `${table.dataset.game}-${table.dataset.version}`) return;
    for (const form of table.querySelectorAll(".hint-form")) form.remove();
    status.textContent = "";
    status.after(inbox.content.cloneNode(true));
  };

  let drawn = null; // the game and version whose table was last drawn (one frame may fire two events)
  const tableChanged = () => {
    const felt = document.querySelector(".felt");
    const table = document.getElementById("table");
    showHint(table);
    const now = table ? `${table.dataset.game}/${table.dataset.version}` : null;
    if (felt && now !== drawn) {
      const newHand = shownHand !== null && felt.dataset.hand !== shownHand;
      finishAll(felt);
      travel(felt);
      gather(felt);
      if (newHand) deal(felt);
      shownHand = felt.dataset.hand;
    }
    drawn = now;
    if (felt) showResult(felt);
    title(felt);
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
    rememberHand();
  };

  // Where your cards are just before a table replaces them (a card you
  // play leaves from where it was).
  for (const name of ["htmx:beforeRequest", "htmx:wsBeforeMessage"]) {
    document.addEventListener(name, rememberHand);
  }
  for (const name of ["htmx:afterSwap", "htmx:oobAfterSwap", "htmx:wsAfterMessage", "table:morphed"]) {
    document.addEventListener(name, tableChanged);
  }
  tableChanged();

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const inForm = document.activeElement && document.activeElement.closest("#act-form");
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (step && inForm) {
      const all = moves();
      const i = all.indexOf(document.activeElement);
      if (all.length) {
        all[i < 0 ? 0 : (i + step + all.length) % all.length].focus();
        event.preventDefault();
      }
      return;
    }
    if (event.key === "Escape") {
      const box = document.querySelector('#hand-result[data-shown="1"] .result-close');
      if (box) box.click();
    }
    if (/^[1-9]$/.test(event.key) && !typing()) {
      const cards = document.querySelectorAll("#act-form .hand .card-button");
      const card = cards[Number(event.key) - 1];
      if (!card) return;
      event.preventDefault();
      card.focus();
      if (card.getAttribute("aria-disabled") !== "true") card.click();
    }
  });
})();
