"""Sign in with Google (seeds 002 and 004) against a real OpenID provider, oidc-provider-mock
0.4.8, in Chromium at phone size: the browser flow, the profile step, cancel and failure,
state and nonce, ID-token validation, key rotation, the linking rules, seed 002's
`POST /auth/google`, and the official supabase-auth client's id_token sign-in."""
import secrets
import time
import urllib.parse

import pytest
import requests
from selenium.webdriver.common.by import By

from conftest import EMAIL, PASSWORD
from google_flow import approve, deny, google_sign_in, landed, password_tokens, press_google, visible_text
from google_provider import (IOS_CLIENT, WEB_CLIENT, GoogleServer, Provider, provider, s256, sha256_hex, tamper,
                             token_header)
from pages import el, wait_for


@pytest.fixture(scope="module")
def peated(provider):
    server = GoogleServer(provider, "002-peated")
    yield server
    server.close()


@pytest.fixture(scope="module")
def urbannest(provider):
    server = GoogleServer(provider, "004-urbannest")
    server.cli("users", "create", "--phone", "+919876543210", "--name", "Demo User")
    yield server
    server.close()


def new_sub():
    return "sub-" + secrets.token_hex(6)


def id_token_grant(server, token, nonce=None):
    body = {"provider": "google", "id_token": token}
    if nonce is not None:
        body["nonce"] = nonce
    return requests.post(server.url + "/auth/v1/token?grant_type=id_token", json=body,
                         headers={"apikey": "anon-test-key"}, timeout=10)


# --- The browser flow -------------------------------------------------------------------------

def test_G01_returning_google_user_signs_in_and_lands_on_home(browser, peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com", name="Grace Hopper")
    driver = browser()
    google_sign_in(driver, peated, sub)
    landed(driver, peated, "/welcome")
    el(driver, "save").click()
    landed(driver, peated, "/home")
    driver.delete_all_cookies()
    google_sign_in(driver, peated, sub)
    landed(driver, peated, "/home")
    assert el(driver, "user-name").text == "Grace Hopper"
    assert el(driver, "user-email").text == f"{sub}@gmail.com"


def test_G02_new_google_user_reaches_profile_setup_then_home(browser, urbannest, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com", name="Katherine Johnson")
    driver = browser(width=390, height=844)
    google_sign_in(driver, urbannest, sub)
    landed(driver, urbannest, "/welcome")
    assert el(driver, "title").text == "Profile Setup"
    assert el(driver, "name").get_attribute("value") == "Katherine Johnson"
    name = el(driver, "name")
    name.clear()
    name.send_keys("Kathy Johnson")
    el(driver, "save").click()
    landed(driver, urbannest, "/home")
    assert el(driver, "user-name").text == "Kathy Johnson"


def test_G03_peated_deny_comes_back_cancelled_with_nothing_shown(browser, peated):
    driver = browser()
    press_google(driver, peated)
    deny(driver)
    url = landed(driver, peated, "/login")
    assert "signin=cancelled&provider=google" in url
    assert visible_text(driver, "google-error") is None
    assert visible_text(driver, "google-notice") is None
    assert not el(driver, "banner").is_displayed()
    assert el(driver, "google").get_attribute("aria-busy") != "true"


def test_G04_urbannest_deny_shows_a_quiet_sign_in_cancelled_not_an_error(browser, urbannest):
    driver = browser()
    press_google(driver, urbannest)
    deny(driver)
    landed(driver, urbannest, "/login")
    notice = el(driver, "google-notice")
    assert notice.text == "Sign-in cancelled"
    assert notice.get_attribute("role") is None
    assert visible_text(driver, "google-error") is None
    assert el(driver, "phone").get_attribute("aria-invalid") == "false"


@pytest.mark.parametrize("app, copy", [("002-peated", "Google sign-in failed. Please try again."),
                                       ("004-urbannest", "Google sign-in failed. Try again.")])
def test_G05_provider_down_says_google_sign_in_failed_in_each_apps_copy(browser, app, copy):
    down = Provider()
    server = GoogleServer(down, app)
    try:
        down.stop()
        driver = browser()
        press_google(driver, server)
        landed(driver, server, "/login")
        assert visible_text(driver, "google-error") == copy
        assert el(driver, "google-error").get_attribute("role") == "alert"
    finally:
        server.close()


def test_G07_the_flow_uses_pkce_s256_and_a_nonce(browser, peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com")
    before = provider.recorded()
    driver = browser()
    google_sign_in(driver, peated, sub)
    landed(driver, peated, "/welcome")
    after = provider.recorded()
    authorize = after["authorize"][len(before["authorize"]):][-1]
    token = after["token"][len(before["token"]):][-1]
    assert authorize["code_challenge_method"] == "S256"
    assert authorize["code_challenge"] == s256(token["code_verifier"])
    assert len(token["code_verifier"]) >= 43
    assert authorize["nonce"] and authorize["state"] and authorize["nonce"] != authorize["state"]
    assert authorize["redirect_uri"] == peated.url + "/auth/google/callback"
    # The mock's metadata lists no token_endpoint_auth_methods: OpenID's default, HTTP Basic.
    assert token["basic"] == "gatehouse-web.apps.example:provider-secret" and "client_secret" not in token


# --- State, binding and nonce -------------------------------------------------------------------

def provider_redirect(driver, server, sub):
    """Runs the flow up to the provider's redirect back, and returns that callback URL unvisited."""
    press_google(driver, server)
    url = driver.current_url
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(url).query))
    response = requests.post(url, data={"sub": sub}, allow_redirects=False, timeout=5)
    return response.headers["Location"], query


def test_G08_callback_without_state_is_refused(browser, peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com")
    driver = browser()
    callback, _ = provider_redirect(driver, peated, sub)
    stripped = callback.split("?")[0] + "?code=" + urllib.parse.parse_qs(urllib.parse.urlparse(callback).query)["code"][0]
    driver.get(stripped)
    landed(driver, peated, "/login")
    assert visible_text(driver, "google-error") == "Authentication failed. Please try again."


def test_G09_forged_state_is_refused(browser, peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com")
    driver = browser()
    callback, query = provider_redirect(driver, peated, sub)
    driver.get(callback.replace(query["state"], secrets.token_urlsafe(32)))
    landed(driver, peated, "/login")
    assert visible_text(driver, "google-error") == "Authentication failed. Please try again."


def test_G10_replayed_callback_is_refused_even_with_the_flow_cookie(browser, peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com")
    driver = browser()
    callback, _ = provider_redirect(driver, peated, sub)
    cookies = driver.execute_cdp_cmd("Network.getAllCookies", {})["cookies"]
    binding = next(cookie for cookie in cookies if cookie["name"] == "__Host-gatehouse-oidc")
    assert binding["httpOnly"] and binding["secure"] and binding["sameSite"] == "Lax"
    driver.get(callback)
    landed(driver, peated, "/welcome")
    signed_in = peated.log.count("Sign-in succeeded")
    driver.delete_all_cookies()
    driver.add_cookie({"name": binding["name"], "value": binding["value"], "path": "/", "secure": True, "httpOnly": True})
    driver.get(callback)
    landed(driver, peated, "/login")
    assert visible_text(driver, "google-error") == "Authentication failed. Please try again."
    assert peated.log.count("Sign-in succeeded") == signed_in


def test_G11_callback_in_another_browser_is_refused(browser, peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com")
    driver = browser()
    callback, _ = provider_redirect(driver, peated, sub)
    other = browser()
    other.get(callback)
    landed(other, peated, "/login")
    assert visible_text(other, "google-error") == "Authentication failed. Please try again."
    assert "binding_mismatch" in peated.log


def test_G12_nonce_mismatch_is_refused(browser, peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com")
    driver = browser()
    press_google(driver, peated)
    url = driver.current_url
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(url).query))
    forged = url.replace("nonce=" + urllib.parse.quote(query["nonce"], safe=""), "nonce=" + secrets.token_urlsafe(16))
    assert forged != url
    response = requests.post(forged, data={"sub": sub}, allow_redirects=False, timeout=5)
    driver.get(response.headers["Location"])
    landed(driver, peated, "/login")
    assert visible_text(driver, "google-error") == "Authentication failed. Please try again."
    assert "nonce mismatch" in peated.log


# --- ID-token validation (native apps: GoTrue's id_token grant) --------------------------------

def test_G13_id_token_for_an_ios_client_signs_in_with_goTrues_hashed_nonce(peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com")
    raw = secrets.token_urlsafe(16)
    response = id_token_grant(peated, provider.id_token(sub, client_id=IOS_CLIENT, nonce=sha256_hex(raw)), nonce=raw)
    assert response.status_code == 200, response.text
    assert response.headers["Cache-Control"] == "no-store"
    assert response.json()["user"]["email"] == f"{sub}@gmail.com"


def test_G14_id_token_with_the_wrong_nonce_is_refused(peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com")
    response = id_token_grant(peated, provider.id_token(sub, nonce=sha256_hex("one")), nonce="another")
    assert response.status_code == 400
    assert "nonce mismatch" in response.json()["msg"]


def test_G15_id_token_for_another_client_is_refused(peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com")
    raw = secrets.token_urlsafe(16)
    response = id_token_grant(peated, provider.id_token(sub, client_id="someone-else", nonce=sha256_hex(raw)), nonce=raw)
    assert response.status_code == 400
    assert "aud" in response.json()["msg"]


def test_G16_id_token_from_another_issuer_with_the_same_sub_and_email_is_refused(peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com")
    assert id_token_grant(peated, provider.id_token(sub, nonce=sha256_hex("n")), nonce="n").status_code == 200
    other = Provider()
    try:
        other.put_user(sub, f"{sub}@gmail.com")
        response = id_token_grant(peated, other.id_token(sub, nonce=sha256_hex("n")), nonce="n")
        assert response.status_code == 400
        assert response.json()["error_code"] == "bad_jwt"
    finally:
        other.stop()


def test_G17_expired_id_token_is_refused():
    short = Provider(token_max_age=1)
    server = GoogleServer(short, "002-peated", extra=("--google-clock-leeway", "0"))
    try:
        sub = new_sub()
        short.put_user(sub, f"{sub}@gmail.com")
        token = short.id_token(sub, nonce=sha256_hex("n"))
        time.sleep(2.5)
        response = id_token_grant(server, token, nonce="n")
        assert response.status_code == 400
        assert "expired" in response.json()["msg"]
    finally:
        server.close()
        short.stop()


def test_G18_id_token_without_kid_or_with_another_alg_or_a_forged_signature_is_refused(peated, provider):
    sub = new_sub()
    provider.put_user(sub, f"{sub}@gmail.com")
    token = provider.id_token(sub, nonce=sha256_hex("n"))
    header = token_header(token)
    no_kid = tamper(token, header={k: v for k, v in header.items() if k != "kid"})
    hs256 = tamper(token, header={**header, "alg": "HS256"})
    none = tamper(token, header={**header, "alg": "none"}, signature="")
    last = token.split(".")[2]
    forged = tamper(token, signature=("A" if last[0] != "A" else "B") + last[1:])
    messages = {name: id_token_grant(peated, bad, nonce="n").json()["msg"]
                for name, bad in [("no_kid", no_kid), ("hs256", hs256), ("none", none), ("forged", forged)]}
    assert "kid is required" in messages["no_kid"]
    assert "alg must be RS256" in messages["hs256"]
    assert "alg must be RS256" in messages["none"]
    assert "signature" in messages["forged"]
    assert id_token_grant(peated, token, nonce="n").status_code == 200


def test_G19_key_rotation_refetches_once_and_a_flood_of_unknown_kids_fetches_at_most_once():
    rotating = Provider()
    server = GoogleServer(rotating, "002-peated")
    try:
        sub = new_sub()
        rotating.put_user(sub, f"{sub}@gmail.com")
        assert id_token_grant(server, rotating.id_token(sub, nonce=sha256_hex("n")), nonce="n").status_code == 200
        rotating.restart()  # same port, new signing key
        rotating.put_user(sub, f"{sub}@gmail.com")
        response = id_token_grant(server, rotating.id_token(sub, nonce=sha256_hex("n")), nonce="n")
        assert response.status_code == 200, response.text
        assert rotating.recorded()["jwks"] == 1
        token = rotating.id_token(sub, nonce=sha256_hex("n"))
        flood = [tamper(token, header={**token_header(token), "kid": f"unknown-{i}"}) for i in range(25)]
        answers = [id_token_grant(server, bad, nonce="n").json()["msg"] for bad in flood]
        assert all("unknown signing key" in answer for answer in answers)
        assert rotating.recorded()["jwks"] <= 2
    finally:
        server.close()
        rotating.stop()


def test_G20_urbannest_rate_limited_otp_still_offers_google_which_signs_in(browser, provider, tmp_path):
    server = GoogleServer(provider, "004-urbannest", extra=(
        "--sms-outbox", str(tmp_path / "outbox.jsonl"), "--resend-after", "0", "--phone-sends-per-window", "1",
        "--phone-address-limit", "1000"))
    try:
        server.cli("users", "create", "--phone", "+919876543210", "--name", "Demo User")
        assert requests.post(server.url + "/api/auth/phone/otp", json={"phone": "+919876543210"}, timeout=10).status_code == 200
        sub = new_sub()
        provider.put_user(sub, f"{sub}@gmail.com", name="Rate Limited")
        driver = browser()
        driver.get(server.url + "/login")
        box = el(driver, "phone")
        box.click()
        box.send_keys("9876543210")
        wait_for(driver, lambda d: el(d, "send").is_enabled())
        el(driver, "send").click()
        wait_for(driver, lambda d: visible_text(d, "banner") == "Too many attempts. Try again in 15 minutes.")
        assert not el(driver, "send").is_enabled()
        google = el(driver, "google")
        assert google.is_enabled() and google.get_attribute("aria-disabled") != "true"
        assert google.text == "Continue with Google"
        google.click()
        wait_for(driver, lambda d: d.current_url.startswith(provider.url))
        approve(driver, sub)
        landed(driver, server, "/welcome")
    finally:
        server.close()


def test_G21_starting_flows_is_limited_per_address_before_anything_is_stored(provider):
    server = GoogleServer(provider, "002-peated", limits=("--address-limit", "3"))
    try:
        for _ in range(3):
            assert requests.get(server.url + "/auth/google/start", allow_redirects=False, timeout=10).status_code == 302
        refused = requests.get(server.url + "/auth/google/start", allow_redirects=False, timeout=10)
        assert refused.status_code == 200 and "/login?signin=rate_limited&amp;provider=google" in refused.text
        app = requests.get(server.url + "/auth/google/start", params={
            "redirect_to": "http://127.0.0.1:5000/callback", "code_challenge": "c" * 43, "state": "s"}, allow_redirects=False, timeout=10)
        assert app.status_code == 429 and app.json()["error"] == "rate_limited"
    finally:
        server.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("outcome", ["cancelled", "failed", "rejected"])
def test_G22_axe_finds_no_violations_on_urbannests_google_outcomes(browser, urbannest, axe_source, outcome, theme):
    from phone_pages import settled
    from test_accessibility import axe_violations
    driver = browser(dark=theme == "dark")
    driver.get(urbannest.url + f"/login?signin={outcome}&provider=google")
    settled(driver)  # after the screen's entry animation, as a person sees it
    shown = visible_text(driver, "google-notice") if outcome == "cancelled" else visible_text(driver, "google-error")
    assert shown
    violations = axe_violations(driver, axe_source)
    assert violations == [], [(v["id"], v.get("help"), [n.get("target") for n in v.get("nodes", [])]) for v in violations]
