// Seed 004's analytics on the web: the events LoginCore reported for this page's request
// (embedded by the server as JSON) and for the script's own requests (the Gatehouse-Analytics
// header) go to Google Tag Manager's `window.dataLayer` as {...parameters, event}, and each is
// dispatched as a `gatehouse:analytics` DOM event for any other tool. No event carries
// personal data; the app file's "analytics": false sends none.
window.dataLayer = window.dataLayer || [];

function push(events) {
  for (const event of events || []) {
    // The name last: a parameter called "event" can never rename the event.
    const entry = { ...event.parameters, event: event.name };
    window.dataLayer.push(entry);
    document.dispatchEvent(new CustomEvent("gatehouse:analytics", { detail: entry }));
  }
}

const PENDING = "gatehouse-analytics";

// For login.js and phone.js: the events of a fetch answer, pushed now or, when the answer
// moves the browser on (`leaving`), by the next page, before its own.
window.gatehouseAnalytics = (response, leaving = false) => {
  let events = [];
  try { events = JSON.parse(response.headers.get("Gatehouse-Analytics") || "[]"); } catch { /* ignored */ }
  if (!events.length) return;
  if (leaving) {
    const pending = JSON.parse(sessionStorage.getItem(PENDING) || "[]");
    sessionStorage.setItem(PENDING, JSON.stringify(pending.concat(events)));
  } else {
    push(events);
  }
};

try {
  const pending = JSON.parse(sessionStorage.getItem(PENDING) || "[]");
  sessionStorage.removeItem(PENDING);
  push(pending);
} catch { /* storage unavailable */ }
const embedded = document.getElementById("gatehouse-analytics");
if (embedded) { try { push(JSON.parse(embedded.textContent)); } catch { /* ignored */ } }

// What the first keystroke in the page's form reports (seed 004's login_phone_started), once.
const onInput = document.getElementById("gatehouse-analytics-input");
if (onInput) {
  let events = [];
  try { events = JSON.parse(onInput.textContent); } catch { /* ignored */ }
  const form = document.querySelector("main form[method=post]");
  form?.addEventListener("input", () => push(events), { once: true });
}
