// Toasts from the per-user notification socket: dismiss on click or Escape; keep the newest few.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-dismiss-toast]");
  if (button) button.closest(".toast")?.remove();
});
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  const toast = document.activeElement?.closest?.(".toast");
  if (toast) toast.remove();
});
document.addEventListener("htmx:oobAfterSwap", () => {
  const box = document.getElementById("notification-toasts");
  if (!box) return;
  while (box.children.length > 3) box.lastElementChild.remove();
});
