// The "Sign in with Google" button: busy while the browser goes to the provider, every other
// input disabled meanwhile, and all of it undone when the back button restores the page.
const form = document.getElementById("google-form");
const button = document.getElementById("google");
const notice = document.getElementById("google-notice");
const error = document.getElementById("google-error");
const announcer = document.getElementById("announcer");

// The screen's other controls: fields, their buttons, and links.
function others() {
  return [...document.querySelectorAll("main input, main select, main button, main a")]
    .filter((element) => element !== button && element.type !== "hidden");
}

function setBusy(busy) {
  button.setAttribute("aria-busy", busy ? "true" : "false");
  button.setAttribute("aria-disabled", busy ? "true" : "false");
  for (const element of others()) {
    if (element.tagName === "A") {
      if (busy) { element.setAttribute("aria-disabled", "true"); element.dataset.href = element.getAttribute("href"); element.removeAttribute("href"); }
      else if (element.dataset.href) { element.setAttribute("href", element.dataset.href); element.removeAttribute("aria-disabled"); }
    } else if (busy) {
      element.dataset.wasDisabled = element.disabled ? "1" : "";
      element.disabled = true;
    } else {
      element.disabled = element.dataset.wasDisabled === "1";
    }
  }
}

if (form && button) {
  form.addEventListener("submit", (event) => {
    if (button.getAttribute("aria-busy") === "true") { event.preventDefault(); return; }
    notice.hidden = true;
    error.hidden = true;
    setBusy(true);
    if (announcer) announcer.textContent = JSON.parse(document.getElementById("gatehouse-config")?.textContent || "{}").messages?.providerSigningIn || "";
  });
  // Back from the provider through the back-forward cache: the button is usable again.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) setBusy(false);
  });
}
