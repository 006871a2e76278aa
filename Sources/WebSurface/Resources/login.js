// Gatehouse login screen. The rules and messages come from LoginCore, embedded by the server
// as JSON (#gatehouse-config); this file holds no copy of either.

// A page restored from the back-forward cache after sign-out must not show stale content.
addEventListener("pageshow", (event) => { if (event.persisted) location.reload(); });

const form = document.getElementById("login-form");
if (form) start(form, JSON.parse(document.getElementById("gatehouse-config").textContent));

// "Email me a sign-in code" takes the address typed above it (without script, the next page asks).
const emailCodeStart = document.getElementById("email-code-start");
if (emailCodeStart) {
  emailCodeStart.addEventListener("submit", () => {
    document.getElementById("email-code-address").value = document.getElementById("email").value;
  });
}

function start(form, config) {
  const $ = (id) => document.getElementById(id);
  const fields = { email: $("email"), password: $("password") };
  const submit = $("submit"), fieldset = $("fields"), banner = $("banner"), announcer = $("announcer");
  const toggle = $("toggle-password");
  const emailPattern = new RegExp(config.rules.emailPattern, "u");
  const shown = { email: fields.email.getAttribute("aria-invalid") === "true", password: fields.password.getAttribute("aria-invalid") === "true" };
  const countdown = $("retry-countdown");
  let submitting = false, coolingDown = false;

  // The same rules as LoginCore's FieldRules: email trimmed; lengths in code points.
  const validate = {
    email(value) {
      const trimmed = value.trim();
      if (!trimmed) return config.messages.emailRequired;
      return emailPattern.test(trimmed) ? null : config.messages.emailInvalid;
    },
    password(value) {
      const length = [...value].length;
      if (length === 0) return config.messages.passwordRequired;
      if (length < config.rules.passwordMinimumLength) return config.messages.passwordTooShort;
      if (length > config.rules.passwordMaximumLength) return config.messages.passwordTooLong;
      return null;
    },
  };

  function announce(text) {
    announcer.textContent = "";
    setTimeout(() => { announcer.textContent = text; }, 50);
  }

  function showError(name, message) {
    const input = fields[name], error = $(`${name}-error`);
    const appeared = Boolean(message) && (error.hidden || error.querySelector("span").textContent !== message);
    shown[name] = Boolean(message);
    input.setAttribute("aria-invalid", message ? "true" : "false");
    input.closest(".field").classList.toggle("invalid", Boolean(message));
    error.querySelector("span").textContent = message || "";
    error.hidden = !message;
    if (appeared) announce(message);
  }

  function showBanner(message) {
    banner.querySelector("span").textContent = message || "";
    banner.hidden = !message;
  }

  function refreshButton() {
    const valid = !validate.email(fields.email.value) && !validate.password(fields.password.value);
    submit.disabled = submitting || coolingDown || (config.submitPolicy === "disabledUntilValid" && !valid);
  }

  function refreshClear(name) {
    const button = form.querySelector(`[data-clear="${name}"]`);
    button.hidden = !(document.activeElement === fields[name] && fields[name].value && !submitting);
  }

  for (const name of ["email", "password"]) {
    const input = fields[name];
    input.addEventListener("input", () => {
      showBanner(null);
      if (shown[name]) showError(name, validate[name](input.value));
      refreshButton();
      refreshClear(name);
    });
    input.addEventListener("blur", () => {
      setTimeout(() => refreshClear(name), 0);
      if (!submitting) showError(name, validate[name](input.value));
    });
    input.addEventListener("focus", () => { refreshClear(name); keepVisible(input); });
    const clear = form.querySelector(`[data-clear="${name}"]`);
    clear.addEventListener("mousedown", (event) => event.preventDefault());
    clear.addEventListener("click", () => {
      input.value = "";
      input.dispatchEvent(new Event("input"));
      input.focus();
    });
  }

  // Enter in the email field moves to the password; Enter in the password field submits.
  fields.email.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); fields.password.focus(); }
  });

  toggle.hidden = false;
  toggle.addEventListener("click", () => {
    const visible = fields.password.type === "password";
    fields.password.type = visible ? "text" : "password";
    toggle.setAttribute("aria-pressed", String(visible));
    toggle.setAttribute("aria-label", visible ? config.messages.hidePassword : config.messages.showPassword);
  });

  // With a software keyboard open, keep the focused field and the button in view (seed 003).
  function keepVisible(input) {
    const scroll = () => {
      const target = input === fields.password ? submit : input;
      target.scrollIntoView({ block: "nearest" });
      input.scrollIntoView({ block: "nearest" });
    };
    setTimeout(scroll, 0);
  }
  if (window.visualViewport) {
    visualViewport.addEventListener("resize", () => {
      const active = document.activeElement;
      if (active === fields.email || active === fields.password) keepVisible(active);
    });
  }

  // After a 429 the button stays disabled for the server's Retry-After, with a visible
  // countdown; assistive technology hears the start (the banner) and the end, not every tick.
  function startCooldown(seconds) {
    const until = Date.now() + seconds * 1000;
    coolingDown = true;
    refreshButton();
    const render = () => {
      const left = Math.ceil((until - Date.now()) / 1000);
      if (left <= 0) {
        clearInterval(timer);
        coolingDown = false;
        countdown.hidden = true;
        refreshButton();
        announce(config.messages.retryReady);
        return;
      }
      const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      countdown.textContent = config.messages.retryCountdown.replace("{time}", time);
      countdown.hidden = false;
    };
    const timer = setInterval(render, 1000);
    render();
  }

  function setSubmitting(value) {
    submitting = value;
    fieldset.disabled = value;
    submit.setAttribute("aria-busy", String(value));
    refreshButton();
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (submitting || coolingDown) return;
    const errors = { email: validate.email(fields.email.value), password: validate.password(fields.password.value) };
    showError("email", errors.email);
    showError("password", errors.password);
    const invalid = ["email", "password"].find((name) => errors[name]);
    if (invalid) { fields[invalid].focus(); return; }
    const body = new URLSearchParams(new FormData(form));
    setSubmitting(true);
    showBanner(null);
    announce(config.messages.signingIn);
    let answer;
    try {
      const response = await fetch(form.action, {
        method: "POST", body, credentials: "same-origin",
        headers: { Accept: "application/json" }, signal: AbortSignal.timeout(30000),
      });
      answer = response.status >= 500 ? { banner: config.messages.serverError } : await response.json();
      window.gatehouseAnalytics?.(response, Boolean(answer.redirect));
      if (!answer.redirect && !answer.banner && !answer.errors) answer = { banner: answer.message || config.messages.serverError };
    } catch (error) {
      answer = { banner: error.name === "TimeoutError" ? config.messages.timeout : config.messages.networkUnavailable };
    }
    if (answer.redirect) { location.assign(answer.redirect); return; }
    setSubmitting(false);
    if (answer.errors) for (const name of ["email", "password"]) showError(name, answer.errors[name] || null);
    showBanner(answer.banner);
    if (answer.banner) announce(answer.banner);
    if (answer.clearPassword) { fields.password.value = ""; refreshButton(); fields.password.focus(); }
    if (answer.retryAfter) startCooldown(answer.retryAfter);
    // "Resend email" beside "Please verify your email address." (only after the right password).
    const resend = document.getElementById("resend-form");
    if (resend) {
      resend.hidden = !answer.resendTo;
      if (answer.resendTo) document.getElementById("resend-email").value = answer.resendTo;
    }
  });

  refreshButton();
  if (form.dataset.retryAfter) startCooldown(Number(form.dataset.retryAfter));
}
