// Gatehouse phone sign-in and code entry (seed 004). The copy and the countries come from the
// server (#gatehouse-config); formatting follows LoginCore's PhoneNumberInput.

addEventListener("pageshow", (event) => { if (event.persisted) location.reload(); });

const config = JSON.parse(document.getElementById("gatehouse-config").textContent);
const $ = (id) => document.getElementById(id);
const text = (key, values = {}) => Object.entries(values).reduce((t, [k, v]) => t.replaceAll(`{${k}}`, v), config.messages[key] || "");
const clock = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

function announce(message) {
  const announcer = $("announcer");
  announcer.textContent = "";
  setTimeout(() => { announcer.textContent = message; }, 50);
}

function showMessage(element, message) {
  element.querySelector("span").textContent = message || "";
  element.hidden = !message;
}

// Shake the field (a border flash under reduced motion: the stylesheet swaps the animation).
function shake(element) {
  element.classList.remove("shake");
  void element.offsetWidth;
  element.classList.add("shake");
}

// Posts the form as it is now; read before its fields are disabled, which drops them from FormData.
async function post(form, timeout, body = new URLSearchParams(new FormData(form))) {
  try {
    const response = await fetch(form.action, {
      method: "POST", body, credentials: "same-origin",
      headers: { Accept: "application/json" }, signal: AbortSignal.timeout(timeout),
    });
    if (response.status >= 500 && response.status !== 503) return { offline: true };
    const answer = await response.json();
    window.gatehouseAnalytics?.(response, Boolean(answer.redirect));
    return answer;
  } catch {
    return { offline: true };
  }
}

// Counts `seconds` down on `element` with a message key, then calls `done`.
function countdown(element, key, seconds, done) {
  const until = Date.now() + seconds * 1000;
  const render = () => {
    const left = Math.ceil((until - Date.now()) / 1000);
    if (left <= 0) { clearInterval(timer); element.hidden = true; done(); return; }
    element.textContent = text(key, { time: clock(left) });
    element.hidden = false;
  };
  const timer = setInterval(render, 1000);
  render();
  return () => clearInterval(timer);
}

const phoneForm = $("phone-form");
if (phoneForm) startPhone(phoneForm);
const codeForm = $("code-form");
if (codeForm) startCode(codeForm);

function startPhone(form) {
  const input = $("phone"), select = $("country"), send = $("send"), field = $("phone-field");
  const error = $("phone-error"), banner = $("banner"), fieldset = $("fields"), name = $("name");
  const label = send.querySelector(".label"), sendText = label.textContent;
  let sending = false, coolingDown = false, complete = false;
  const country = () => config.countries.find((c) => c.code === select.value) || config.countries[0];

  // LoginCore's PhoneNumberInput.edit: keep digits, drop a pasted or typed dial code or trunk 0, cap, group, keep the caret.
  function edit(raw, caret) {
    const c = country(), max = Math.max(c.digits, ...(c.mobile_lengths || [])) || 14, dial = c.dial_code.replace(/\D/g, "");
    let before = [...raw.slice(0, caret)].filter((ch) => /[0-9]/.test(ch)).length;
    let digits = raw.replace(/\D/g, "");
    const trimmed = raw.trimStart();
    if (trimmed.startsWith("+") || trimmed.startsWith("00")) {
      const prefix = (trimmed.startsWith("00") ? "00" : "") + dial;
      if (digits.startsWith(prefix) && digits.length > prefix.length) { digits = digits.slice(prefix.length); before -= prefix.length; }
      else {
        // Still typing the country code (+, +9, +91), or another country's: kept as typed, never national digits.
        const pending = (trimmed.startsWith("00") ? "" : "+") + digits.slice(0, 15);
        return { formatted: pending, position: pending.length, digits: "", done: false };
      }
    } else if (digits.length > max && !digits.startsWith("0") && digits.startsWith(dial) && digits.length <= dial.length + max) {
      digits = digits.slice(dial.length); before -= dial.length;
    }
    if (digits.length > max && digits.startsWith("0")) { digits = digits.slice(1); before -= 1; }
    digits = digits.slice(0, max);
    const groups = [];
    let rest = digits;
    for (const size of c.grouping) { if (!rest) break; groups.push(rest.slice(0, size)); rest = rest.slice(size); }
    if (rest) groups.push(rest);
    const formatted = groups.join(" ");
    let position = 0, seen = 0, wanted = Math.min(Math.max(before, 0), digits.length);
    for (let i = 0; i < formatted.length && seen < wanted; i++) { if (/[0-9]/.test(formatted[i])) seen++; position = i + 1; }
    return { formatted, position, digits, done: isComplete(digits, c) };
  }

  // LoginCore's PhoneNumberInput.isComplete: libphonenumber's own rule for the region, as the server checks.
  function isComplete(digits, c) {
    if (!digits) return false;
    if (c.mobile_pattern) {
      if (c.mobile_lengths?.length && !c.mobile_lengths.includes(digits.length)) return false;
      return new RegExp(`^(?:${c.mobile_pattern})$`).test(digits);
    }
    return digits[0] !== "0" && (c.digits ? digits.length === c.digits : digits.length >= 4);
  }

  function refresh() {
    const wasComplete = complete;
    const result = edit(input.value, input.selectionStart ?? input.value.length);
    if (input.value !== result.formatted) {
      input.value = result.formatted;
      if (document.activeElement === input) input.setSelectionRange(result.position, result.position);
    }
    complete = result.done;
    field.classList.toggle("complete", complete);
    send.disabled = sending || coolingDown || !complete || (name && !name.value.trim());
    if (complete && !wasComplete) announce(text("phoneValid"));
  }

  function showNumberError(message) {
    showMessage(error, message);
    field.classList.toggle("invalid", Boolean(message));
    input.setAttribute("aria-invalid", message ? "true" : "false");
  }

  function setSending(value) {
    sending = value;
    fieldset.disabled = value;
    send.setAttribute("aria-busy", String(value));
    const link = $("switch-link");
    if (link) link.toggleAttribute("aria-disabled", value);
    refresh();
  }

  // Send OTP waits out a 429: a limit shows its error and "Try again in"; the resend window
  // (a code went out moments ago) shows only "Resend code in", with no error beside it.
  // LoginCore's PhoneSignInForm: the resend window is its own countdown ("Resend code in 0:33");
  // a limit's sentence is the only wait shown, counting down in place under an hour.
  function cooldown(seconds, resendWindow) {
    coolingDown = true;
    refresh();
    const done = () => {
      coolingDown = false;
      showMessage(banner, null);
      refresh();
      announce(text("retryReady", { button: sendText }));
    };
    if (resendWindow) { countdown($("retry-countdown"), "resendCountdown", seconds, done); return; }
    $("retry-countdown").hidden = true;
    const until = Date.now() + seconds * 1000;
    const timer = setInterval(() => {
      const left = Math.ceil((until - Date.now()) / 1000);
      if (left <= 0) { clearInterval(timer); done(); return; }
      if (left < 3600) showMessage(banner, text("rateLimited", { time: clock(left) }));
    }, 1000);
  }

  input.addEventListener("input", () => {
    showNumberError(null);
    showMessage(banner, null);
    $("switch-link")?.classList.remove("emphasised");
    refresh();
  });
  name?.addEventListener("input", refresh);
  // Return submits even while Send OTP is disabled, so an incomplete number gets its error.
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); form.requestSubmit(); }
  });
  select.addEventListener("change", () => {
    const c = country();
    select.setAttribute("aria-label", text("countryCodeLabel", { country: c.name, dialCode: c.dial_code }));
    input.placeholder = text("phonePlaceholder", { example: c.example });
    refresh();
  });
  $("switch-link")?.addEventListener("click", (event) => { if (sending) event.preventDefault(); });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (sending || coolingDown) return;
    if (name && !name.value.trim()) {
      showMessage($("name-error"), text("nameRequired"));
      announce(text("nameRequired"));
      name.focus();
      return;
    }
    if (!complete) {
      showNumberError(text("phoneInvalid", { digits: String(country().digits) }));
      announce(text("phoneInvalidAnnouncement"));
      shake(field);
      input.focus();
      return;
    }
    const body = new URLSearchParams(new FormData(form));
    setSending(true);
    showMessage(banner, null);
    announce(text("sendingCode"));
    const answer = await post(form, 15000, body);
    if (answer.redirect) {
      label.textContent = text("codeSentButton");
      send.setAttribute("aria-busy", "false");
      announce(text("codeSent"));
      setTimeout(() => location.assign(answer.redirect), 200);
      return;
    }
    setSending(false);
    label.textContent = sendText;
    if (answer.offline) {
      showMessage(banner, text("sendCodeOffline"));
      announce(text("sendCodeOffline"));
      shake(field);
      return;
    }
    if (answer.nameError) showMessage($("name-error"), answer.nameError);
    if (answer.numberError) {
      showNumberError(answer.numberError);
      announce(text("phoneInvalidAnnouncement"));
      shake(field);
      input.focus();
    }
    showMessage(banner, answer.banner);
    if (answer.banner) announce(answer.banner);
    if (answer.announcement) announce(answer.announcement);
    if (answer.suggestsRegistration) $("switch-link")?.classList.add("emphasised");
    if (answer.retryAfter) cooldown(answer.retryAfter, answer.waitsForResend);
    $("enter-code").hidden = !answer.codeHref;
  });

  refresh();
  if (form.dataset.retryAfter) cooldown(Number(form.dataset.retryAfter), form.dataset.waitsForResend === "true");
  if (!name) setTimeout(() => input.focus(), matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : 600);
}

function startCode(form) {
  const input = $("code"), verify = $("verify"), field = $("code-field"), error = $("code-error"), banner = $("banner");
  const length = Number(form.dataset.codeLength);
  const resend = $("resend");
  let verifying = false, expired = input.disabled;

  function showCodeError(message) {
    showMessage(error, message);
    field.classList.toggle("invalid", Boolean(message));
    input.setAttribute("aria-invalid", message ? "true" : "false");
    if (message) announce(message);
  }

  function refresh() { verify.disabled = verifying || expired || input.value.length !== length; }

  function expire(message) {
    expired = true;
    input.value = "";
    input.disabled = true;
    showCodeError(message);
    refresh();
    resend.focus();
  }

  async function submit() {
    if (verifying || expired) return;
    verifying = true;
    input.readOnly = true;
    verify.setAttribute("aria-busy", "true");
    refresh();
    announce(text("verifyingCode"));
    const answer = await post(form, 15000);
    if (answer.redirect) { location.assign(answer.redirect); return; }
    verifying = false;
    input.readOnly = false;
    verify.setAttribute("aria-busy", "false");
    if (answer.offline) { showMessage(banner, text("networkUnavailable")); announce(text("networkUnavailable")); refresh(); return; }
    input.value = "";
    showMessage(banner, answer.banner);
    if (answer.banner) announce(answer.banner);
    if (answer.expired) { expire(answer.codeError); shake(field); return; }
    showCodeError(answer.codeError);
    shake(field);
    refresh();
    input.focus();
  }

  input.addEventListener("input", () => {
    const digits = input.value.replace(/\D/g, "").slice(0, length);
    if (input.value !== digits) input.value = digits;
    if (error.hidden === false) showCodeError(null);
    showMessage(banner, null);
    refresh();
    if (digits.length === length) submit();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.length !== length) { showCodeError(text("codeIncomplete", { length: String(length) })); shake(field); input.focus(); return; }
    submit();
  });

  const resendAfter = Number(form.dataset.resendAfter);
  if (resendAfter > 0) {
    resend.disabled = true;
    // One wait, on the button itself: "Resend code in 0:59", then "Resend code".
    countdown(resend, "resendCountdown", resendAfter, () => { resend.disabled = false; resend.textContent = resend.dataset.ready; resend.hidden = false; });
  }
  const expiresIn = Number(form.dataset.expiresIn);
  if (!expired) setTimeout(() => { if (!verifying) expire(text("codeExpired")); }, expiresIn * 1000);

  // WebOTP: where the browser supports it, the SMS's "@host #code" line fills the field.
  if ("OTPCredential" in window && !expired) {
    navigator.credentials.get({ otp: { transport: ["sms"] } }).then((otp) => {
      if (otp && !expired) { input.value = otp.code; input.dispatchEvent(new Event("input")); }
    }).catch(() => {});
  }
  refresh();
}
