"""Issue 21: the second attacker's pass, each finding with the attacker's exact input on the
surface where it was found: the tab/newline `return_to` in Chromium, the silent account check
against a webhook gateway that takes 1 s, and names with NUL, BEL and bidi controls on the web's
name entry points (registration, the profile step, a provider's profile)."""
import secrets
import statistics
import time
import urllib.parse

import pytest
import requests

from google_flow import approve, google_sign_in, landed
from google_provider import GoogleServer, provider  # noqa: F401
from pages import el, post_and_wait, wait_for
from phone_pages import ROOMY_PHONE, PhoneServer, open_phone, settled
from sms_gateways import WebhookReceiver


@pytest.fixture(scope="module")
def peated(provider):
    server = GoogleServer(provider, "002-peated")
    yield server
    server.close()


def new_sub():
    return "h21-" + secrets.token_hex(6)


# --- Finding 1: return_to after Google sign-in ---------------------------------------------------

ATTACKS = ["%2F%09%2Fevil.example%2Fx", "%2F%0A%2Fevil.example%2Fx", "%2F%0D%0A%2Fevil.example%2Fx"]


@pytest.mark.parametrize("encoded", ATTACKS, ids=["tab", "newline", "crlf"])
def test_H21_tab_or_newline_return_to_is_refused_in_chromium_and_never_leaves_the_site(browser, peated, provider, encoded):
    before = len(provider.recorded()["authorize"])
    driver = browser()
    driver.get(peated.url + "/auth/google/start?return_to=" + encoded)
    wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    assert driver.current_url.startswith(peated.url + "/auth/google/start"), driver.current_url
    assert "redirect_not_allowed" in driver.find_element("tag name", "body").text
    assert len(provider.recorded()["authorize"]) == before, "the browser never went to the provider"


@pytest.mark.parametrize("encoded", ATTACKS, ids=["tab", "newline", "crlf"])
def test_H21_refused_return_to_over_http_is_400_json_and_starts_no_flow(peated, encoded):
    response = requests.get(peated.url + "/auth/google/start?return_to=" + encoded, allow_redirects=False, timeout=10)
    assert response.status_code == 400
    assert response.headers["Content-Type"].startswith("application/json")
    assert response.json()["error"] == "redirect_not_allowed"
    assert "gatehouse-oidc" not in response.headers.get("Set-Cookie", "")


def test_H21_a_same_origin_return_to_is_where_a_returning_user_lands(browser, peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com", name="Grace Hopper")
    driver = browser()
    google_sign_in(driver, peated, sub)          # first sign-in: the profile step
    landed(driver, peated, "/welcome")
    el(driver, "save").click()
    landed(driver, peated, "/home")
    driver.delete_all_cookies()
    driver.get(peated.url + "/auth/google/start?return_to=" + urllib.parse.quote("/home?from=return", safe=""))
    wait_for(driver, lambda d: d.current_url.startswith(provider.url))
    approve(driver, sub)
    wait_for(driver, lambda d: d.current_url == peated.url + "/home?from=return")


# --- Finding 3: the silent account check and a slow gateway --------------------------------------

def test_H21_silent_check_answers_known_and_unknown_numbers_alike_with_a_one_second_gateway():
    receiver = WebhookReceiver(delay=1.0)
    server = None
    try:
        server = PhoneServer(outbox=False, phone_limits=ROOMY_PHONE, extra=("--sms-webhook", receiver.url, "--silent-account-check"),
                             environment={"GATEHOUSE_SMS_WEBHOOK_SECRET": receiver.secret})
        known = [f"+9198765400{i:02d}" for i in range(5)]
        for phone in known:
            server.cli("users", "create", "--phone", phone, "--name", "Known Person")
        unknown = [f"+9191234500{i:02d}" for i in range(5)]
        timings = {"known": [], "unknown": []}
        for known_phone, unknown_phone in zip(known, unknown):
            for kind, phone in (("known", known_phone), ("unknown", unknown_phone)):
                start = time.monotonic()
                response = requests.post(server.url + "/api/auth/phone/otp", json={"phone": phone}, timeout=10)
                timings[kind].append(time.monotonic() - start)
                assert response.status_code == 200, response.text
                assert sorted(response.json()) == ["code_length", "expires_in", "phone_masked", "resend_after", "verification_id"]
        # The gateway's second is not in any answer, and the two kinds answer alike.
        assert max(timings["known"]) < 0.5, timings
        assert abs(statistics.median(timings["known"]) - statistics.median(timings["unknown"])) < 0.15, timings
        # Delivered after the answers, to the known numbers only.
        deadline = time.monotonic() + 15
        while len(receiver.received) < len(known) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert sorted(payload["user"]["phone"] for payload in receiver.received) == sorted(known)
    finally:
        if server:
            server.close()
        receiver.close()


# --- Finding 4: names with control and direction characters --------------------------------------

NAMES = {"nul": "\u0000<script>", "bel": "a\u0000b\u0007c\nd", "bidi": "\u202egnp.exe"}
REFUSALS = {"nul": "A name must not contain control characters", "bel": "A name must not contain control characters",
            "bidi": "A name must not contain text-direction controls"}


def set_value(driver, element_id, value):
    """Puts a value no keyboard types (NUL, BEL) into a field, as a script or a paste would."""
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));",
                          el(driver, element_id), value)


@pytest.fixture(scope="module")
def registration_server():
    server = PhoneServer()
    yield server
    server.close()


@pytest.mark.parametrize("kind", list(NAMES))
def test_H21_registration_screen_refuses_the_name_and_sends_nothing(browser, registration_server, kind):
    driver = browser(width=390, height=844)
    open_phone(driver, registration_server, "/register")
    set_value(driver, "name", NAMES[kind])
    set_value(driver, "phone", "91234 50099")
    wait_for(driver, lambda d: el(d, "send").is_enabled())
    before = len(registration_server.codes("+919123450099"))
    el(driver, "send").click()
    wait_for(driver, lambda d: el(d, "name-error").is_displayed())
    assert el(driver, "name-error").text == REFUSALS[kind]
    assert driver.current_url.endswith("/register")
    time.sleep(0.3)
    assert len(registration_server.codes("+919123450099")) == before, "no code was sent"


@pytest.mark.parametrize("kind", list(NAMES))
def test_H21_profile_step_refuses_the_name_with_400(browser, peated, provider, kind):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com", name="Plain Name")
    driver = browser()
    google_sign_in(driver, peated, sub)
    landed(driver, peated, "/welcome")
    set_value(driver, "name", NAMES[kind])
    post_and_wait(driver, "save")
    settled(driver)
    assert driver.current_url.endswith("/welcome")
    assert el(driver, "name-error").text == REFUSALS[kind]
    status = driver.execute_script("return performance.getEntriesByType('navigation')[0].responseStatus")
    assert status == 400


def test_H21_a_providers_name_with_a_bidi_control_is_not_stored_and_the_profile_step_asks(browser, peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com", name="\u202eevil")
    driver = browser()
    google_sign_in(driver, peated, sub)
    landed(driver, peated, "/welcome")
    assert el(driver, "name").get_attribute("value") == ""
