// The header's <details data-menu> menus (the language menu) and the phone's
// menu toggle work without this file; it only closes them the way menus close:
// on Escape (focus goes back to the menu's button) and on a click or focus
// elsewhere on the page, and keeps one menu open at a time.
(() => {
  const openMenus = () => document.querySelectorAll("details[data-menu][open]");
  const navToggle = () => document.getElementById("nav-toggle");

  function closeAll(except) {
    for (const menu of openMenus()) {
      if (menu !== except) menu.open = false;
    }
  }

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    for (const menu of openMenus()) {
      menu.open = false;
      if (menu.contains(document.activeElement)) menu.querySelector("summary").focus();
    }
    const toggle = navToggle();
    if (toggle && toggle.checked) {
      toggle.checked = false;
      if (toggle.closest("nav").contains(document.activeElement)) toggle.focus();
    }
  });

  // A click (or tap) outside an open menu closes it; outside the header, the
  // phone's menu too.
  document.addEventListener("click", (event) => {
    const inside = event.target.closest("details[data-menu]");
    closeAll(inside);
    const toggle = navToggle();
    if (toggle && toggle.checked && !event.target.closest(".site-header")) toggle.checked = false;
  });

  // Tabbing out of a menu closes it.
  document.addEventListener("focusin", (event) => {
    closeAll(event.target.closest("details[data-menu]"));
  });

  // Opening one menu closes the others ("toggle" does not bubble: capture it).
  document.addEventListener(
    "toggle",
    (event) => {
      const menu = event.target;
      if (menu.matches && menu.matches("details[data-menu]") && menu.open) closeAll(menu);
    },
    true,
  );
})();
