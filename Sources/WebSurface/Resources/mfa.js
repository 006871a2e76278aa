// Recovery codes: "Copy" puts them on the clipboard (shown only where the clipboard exists;
// "Download as text" works without JavaScript).
const copy = document.getElementById("copy-codes");
if (copy && navigator.clipboard) {
  copy.hidden = false;
  copy.addEventListener("click", async () => {
    const codes = [...document.querySelectorAll("#recovery-codes code")].map((code) => code.textContent).join("\n");
    await navigator.clipboard.writeText(codes);
    const announcer = document.getElementById("announcer");
    announcer.textContent = "";
    setTimeout(() => { announcer.textContent = copy.dataset.copied; }, 50);
  });
}
