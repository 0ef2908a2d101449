// The dashboard's one script, an extra: every page works without it. It shows the copy
// buttons next to a key shown once and copies the key to the clipboard.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("button.copy[data-copy]")) {
    const field = document.getElementById(button.dataset.copy);
    if (!field || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener("click", async () => {
      await navigator.clipboard.writeText(field.value);
      button.textContent = "Copied";
    });
  }
});
