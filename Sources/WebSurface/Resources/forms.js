// Gatehouse's shared form components for every page after the login page (sign-up,
// verification, forgot, reset): each field checked when the person leaves it, with LoginCore's
// checks (the server writes them into data-checks); a show/hide toggle on password fields; a
// primary button with a spinner that cannot be pressed twice; focus on the first error; and a
// resend button that counts its wait down. Without this script every form still works.

addEventListener("pageshow", (event) => { if (event.persisted) location.reload(); });

const clock = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

// LoginCore's FieldCheck, one case each.
function issue(check, value) {
  switch (check.kind) {
    case "required": return (check.trimmed ? value.trim() : value) ? null : check.message;
    case "pattern": return new RegExp(`^(?:${check.pattern})$`, "u").test(value.trim()) ? null : check.message;
    case "minimumLength": return [...value].length < check.minimum ? check.message : null;
    case "maximumBytes": return new TextEncoder().encode(value).length > check.maximum ? check.message : null;
    default: return null;
  }
}

for (const form of document.querySelectorAll("form[data-submit-policy]")) enhance(form);
for (const button of document.querySelectorAll("button[data-wait]")) countDown(button);

function enhance(form) {
  const announcer = form.querySelector("#announcer");
  const submit = form.querySelector("button[type=submit]");
  const inputs = [...form.querySelectorAll("input[data-checks]")];
  const checks = new Map(inputs.map((input) => [input, JSON.parse(input.dataset.checks || "[]")]));
  const shown = new Set(inputs.filter((input) => input.getAttribute("aria-invalid") === "true"));
  let submitting = false;

  const announce = (text) => {
    if (!announcer) return;
    announcer.textContent = "";
    setTimeout(() => { announcer.textContent = text; }, 50);
  };
  const firstIssue = (input) => checks.get(input).map((check) => issue(check, input.value)).find(Boolean) || null;

  function show(input, message) {
    const error = form.querySelector(`#${input.id}-error`);
    const appeared = Boolean(message) && (error.hidden || error.querySelector("span").textContent !== message);
    input.setAttribute("aria-invalid", message ? "true" : "false");
    input.closest(".field").classList.toggle("invalid", Boolean(message));
    error.querySelector("span").textContent = message || "";
    error.hidden = !message;
    if (message) shown.add(input); else shown.delete(input);
    if (appeared) announce(message);
  }

  function refreshButton() {
    const valid = inputs.every((input) => !firstIssue(input));
    submit.disabled = submitting || (form.dataset.submitPolicy === "disabledUntilValid" && !valid);
  }

  for (const input of inputs) {
    input.addEventListener("input", () => {
      const banner = form.querySelector("#banner");
      if (banner) banner.hidden = true;
      if (shown.has(input)) show(input, firstIssue(input));
      refreshButton();
      // A one-time code submits itself once it is whole (data-autosubmit: its length).
      const whole = Number(input.dataset.autosubmit || 0);
      if (whole && input.value.replace(/\s/g, "").length === whole && !firstIssue(input)) form.requestSubmit();
    });
    input.addEventListener("blur", () => {
      // Leaving an empty one-time code (to use a recovery code instead) is no mistake, and must
      // not move the link being tapped; the server's "That code didn't work" stays.
      if (submitting || (input.dataset.autosubmit && !input.value)) return;
      show(input, firstIssue(input));
    });
  }

  for (const toggle of form.querySelectorAll("button[data-toggle]")) {
    const input = form.querySelector(`#${toggle.dataset.toggle}`);
    toggle.hidden = false;
    toggle.addEventListener("click", () => {
      const reveal = input.type === "password";
      input.type = reveal ? "text" : "password";
      toggle.setAttribute("aria-pressed", String(reveal));
      toggle.setAttribute("aria-label", reveal ? toggle.dataset.hideLabel : toggle.dataset.showLabel);
    });
  }

  form.addEventListener("submit", (event) => {
    if (submitting) { event.preventDefault(); return; }
    const failing = inputs.filter((input) => { const message = firstIssue(input); show(input, message); return Boolean(message); });
    if (failing.length) {
      event.preventDefault();
      failing[0].focus();
      return;
    }
    // Sent as a normal form post: the spinner shows and a second press does nothing.
    submitting = true;
    submit.setAttribute("aria-busy", "true");
    setTimeout(() => { submit.disabled = true; }, 0);
  });
  refreshButton();
}

// "Resend email in 0:55": disabled until the wait is over, then its label again (data-ready).
function countDown(button) {
  const until = Date.now() + Number(button.dataset.wait) * 1000;
  const render = () => {
    const left = Math.ceil((until - Date.now()) / 1000);
    button.disabled = left > 0;
    button.textContent = left > 0 ? button.dataset.countdown.replace("{time}", clock(left)) : button.dataset.ready;
    if (left <= 0) clearInterval(timer);
  };
  const timer = setInterval(render, 1000);
  render();
}
