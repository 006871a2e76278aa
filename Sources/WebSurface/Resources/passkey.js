// Passkeys on the web screens (issue 23, seed 003): the biometric prompt on /login, passkey
// autofill on the email field, and Home's offer and "add a passkey". Every call is a form POST
// with the page's CSRF token, like the screens' other forms; the server checks everything.

const b64 = {
  decode(text) {
    const base = text.replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base + "=".repeat((4 - base.length % 4) % 4)), (c) => c.charCodeAt(0)).buffer;
  },
  encode(buffer) {
    return btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  },
};

function creationOptions(json) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  return { ...json, challenge: b64.decode(json.challenge), user: { ...json.user, id: b64.decode(json.user.id) },
    excludeCredentials: json.excludeCredentials.map((c) => ({ ...c, id: b64.decode(c.id) })) };
}

function requestOptions(json) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  return { ...json, challenge: b64.decode(json.challenge), allowCredentials: json.allowCredentials.map((c) => ({ ...c, id: b64.decode(c.id) })) };
}

function credentialJSON(credential) {
  if (credential.toJSON) return credential.toJSON();
  const r = credential.response;
  const response = { clientDataJSON: b64.encode(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = b64.encode(r.attestationObject);
    response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    response.authenticatorData = b64.encode(r.authenticatorData);
    response.signature = b64.encode(r.signature);
    if (r.userHandle) response.userHandle = b64.encode(r.userHandle);
  }
  return { id: credential.id, rawId: b64.encode(credential.rawId), type: credential.type, response,
    authenticatorAttachment: credential.authenticatorAttachment, clientExtensionResults: {} };
}

const csrf = () => document.querySelector('input[name="csrf"]')?.value ?? "";

async function post(url, fields = {}) {
  const response = await fetch(url, {
    method: "POST", credentials: "same-origin", headers: { Accept: "application/json" },
    body: new URLSearchParams({ csrf: csrf(), ...fields }), signal: AbortSignal.timeout(30000),
  });
  let answer = {};
  try { answer = await response.json(); } catch { answer = {}; }
  return { ok: response.ok, status: response.status, answer };
}

/// A dismissed or timed-out prompt (NotAllowedError, AbortError) is a cancel, not a failure.
const cancelled = (error) => error && (error.name === "NotAllowedError" || error.name === "AbortError");

function say(element, text, isError) {
  if (!element) return;
  element.hidden = !text;
  element.classList.toggle("notice", !isError);
  const span = element.querySelector("span") ?? element;
  span.textContent = text ?? "";
  const announcer = document.getElementById("announcer");
  if (announcer && text) announcer.textContent = text;
}

// ---- /login: the biometric prompt and passkey autofill ----
const prompt = document.getElementById("biometric-prompt");
const loginForm = document.getElementById("login-form");
if (prompt && loginForm && window.PublicKeyCredential) {
  const banner = document.getElementById("banner");
  let conditional = null;

  const showForm = (text, isError) => {
    prompt.hidden = true;
    loginForm.hidden = false;
    say(banner, text, isError);
    document.getElementById("email")?.focus();
    startAutofill();
  };

  // One ceremony: options, the platform's prompt (modal or autofill), and the server's verdict.
  async function signIn(mediation) {
    const options = await post("/login/passkey/options");
    if (!options.ok) throw { answer: options.answer };
    const controller = new AbortController();
    if (mediation === "conditional") conditional = controller;
    const credential = await navigator.credentials.get({ publicKey: requestOptions(options.answer), mediation, signal: controller.signal });
    const json = credentialJSON(credential);
    const verdict = await post("/login/passkey", { credential: JSON.stringify(json) });
    if (verdict.ok && verdict.answer.redirect) { location.assign(verdict.answer.redirect); return; }
    if (verdict.answer.unknown && PublicKeyCredential.signalUnknownCredential) {
      PublicKeyCredential.signalUnknownCredential({ rpId: options.answer.rpId, credentialId: json.id }).catch(() => {});
    }
    throw { answer: verdict.answer };
  }

  async function startPrompt() {
    conditional?.abort();
    prompt.hidden = false;
    loginForm.hidden = true;
    try {
      await signIn("optional");
    } catch (error) {
      if (cancelled(error)) showForm(prompt.dataset.cancelled, false);
      else showForm(error?.answer?.banner ?? prompt.dataset.failed, error?.answer?.bannerIsError ?? true);
    }
  }

  async function startAutofill() {
    if (conditional || !PublicKeyCredential.isConditionalMediationAvailable) return;
    if (!(await PublicKeyCredential.isConditionalMediationAvailable())) return;
    try {
      await signIn("conditional");
    } catch (error) {
      conditional = null;
      // Autofill is an offer, not a request: only the server's verdict on a chosen passkey is
      // worth a banner; a browser without a passkey to offer stays silent (and keeps the page's own message).
      if (error?.answer?.banner) say(banner, error.answer.banner, error.answer.bannerIsError ?? true);
    }
  }

  document.getElementById("biometric-retry").addEventListener("click", startPrompt);
  document.getElementById("use-password").addEventListener("click", () => showForm(null, false));
  if (!prompt.hidden) startPrompt();
  else startAutofill();
}

// ---- Home: seed 003's offer and "add a passkey" ----
const list = document.getElementById("passkeys");
if (list && window.PublicKeyCredential) {
  const offer = document.getElementById("biometric-offer");
  const add = document.getElementById("add-passkey");
  const offerBanner = document.getElementById("offer-banner");

  async function register() {
    const options = await post("/home/passkeys/options");
    if (!options.ok) return { failed: options.answer.message ?? list.dataset.failed };
    try {
      const credential = await navigator.credentials.create({ publicKey: creationOptions(options.answer) });
      const verdict = await post("/home/passkeys", { credential: JSON.stringify(credentialJSON(credential)) });
      if (verdict.ok) { location.assign("/home?passkey=added"); return {}; }
      return { failed: verdict.answer.banner ?? list.dataset.failed };
    } catch (error) {
      return cancelled(error) ? { cancelled: list.dataset.cancelled } : { failed: list.dataset.failed };
    }
  }

  // Offered only where this device has no passkey yet and the host can make one (the server decides).
  if (add) {
    add.hidden = false;
    add.addEventListener("click", async () => {
      const outcome = await register();
      say(document.getElementById("offer-status"), outcome.cancelled ?? outcome.failed, !outcome.cancelled);
    });
  }

  if (offer && PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable) {
    PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable().then((available) => {
      if (!available) return;
      offer.hidden = false;
      if (add) add.hidden = true;
      document.getElementById("offer-title").focus?.();
      const announcer = document.getElementById("offer-status");
      if (announcer) { announcer.hidden = false; announcer.textContent = ""; }
    });
    document.getElementById("offer-accept").addEventListener("click", async () => {
      const outcome = await register();
      say(offerBanner, outcome.cancelled ?? outcome.failed, !outcome.cancelled);
    });
  }
}

// ---- /login/mfa: a passkey answers the second step (issue 37) ----
const stepUp = document.getElementById("use-passkey");
if (stepUp && window.PublicKeyCredential) {
  stepUp.hidden = false;
  stepUp.addEventListener("click", async () => {
    const banner = document.getElementById("banner");
    stepUp.disabled = true;
    try {
      const options = await post("/login/mfa/passkey/options");
      if (!options.ok) throw { answer: options.answer };
      const credential = await navigator.credentials.get({ publicKey: requestOptions(options.answer) });
      const verdict = await post("/login/mfa/passkey", { credential: JSON.stringify(credentialJSON(credential)) });
      if (verdict.ok && verdict.answer.redirect) { location.assign(verdict.answer.redirect); return; }
      say(banner, verdict.answer.banner ?? stepUp.dataset.failed, true);
    } catch (error) {
      say(banner, cancelled(error) ? stepUp.dataset.cancelled : (error?.answer?.banner ?? stepUp.dataset.failed), !cancelled(error));
    } finally {
      stepUp.disabled = false;
    }
  });
}
