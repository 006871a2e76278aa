// The provider buttons ("Sign in with Google", "Sign in with GitHub", …): the pressed one busy
// while the browser goes to its provider, every other input disabled meanwhile, and all of it
// undone when the back button restores the page.
const announcer = document.getElementById("announcer");
const forms = [...document.querySelectorAll("form.provider")];

// The screen's other controls: fields, their buttons, and links.
function others(button) {
  return [...document.querySelectorAll("main input, main select, main button, main a")]
    .filter((element) => element !== button && element.type !== "hidden");
}

function setBusy(button, busy) {
  button.setAttribute("aria-busy", busy ? "true" : "false");
  button.setAttribute("aria-disabled", busy ? "true" : "false");
  for (const element of others(button)) {
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

for (const form of forms) {
  const button = form.querySelector("button");
  if (!button) continue;
  form.addEventListener("submit", (event) => {
    if (button.getAttribute("aria-busy") === "true") { event.preventDefault(); return; }
    for (const message of document.querySelectorAll(".providers .provider-notice, .providers .banner")) message.hidden = true;
    setBusy(button, true);
    if (announcer) announcer.textContent = form.dataset.signingIn || "";
  });
  // Back from the provider through the back-forward cache: the button is usable again.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && button.getAttribute("aria-busy") === "true") setBusy(button, false);
  });
}
