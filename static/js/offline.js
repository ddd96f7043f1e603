// The offline page (templates/error.html, kept by the service worker): its
// "Try again" button loads the page asked for again, and so does the
// network coming back. The address is still the page's, so a reload is a retry.
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-reload]")) window.location.reload();
});
window.addEventListener("online", () => window.location.reload());
