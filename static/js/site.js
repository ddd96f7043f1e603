// Small progressive enhancements; every page works without them.
document.addEventListener("htmx:responseError", (event) => {
  const box = document.getElementById("messages");
  if (!box) return;
  const p = document.createElement("p");
  p.className = "message error";
  p.setAttribute("role", "alert");
  p.textContent = "The server could not complete that request (" + event.detail.xhr.status + "). Please try again.";
  box.replaceChildren(p);
});
