"""Google's linking rules (keyed on the provider's sub, never on email alone), linking and
unlinking from Home, seed 002's `POST /auth/google`, the official supabase-auth client, and
the button's accessibility in every state, against oidc-provider-mock 0.4.8 in Chromium."""
import secrets
import urllib.parse

import pytest
import requests
from supabase_auth import SyncGoTrueClient

from google_flow import approve, click_and_land, google_sign_in, landed, password_tokens, press_google, visible_text
from google_provider import GoogleServer, provider, sha256_hex
from pages import el, open_login, post_and_wait, type_into, wait_for
from test_accessibility import axe_violations


@pytest.fixture(scope="module")
def peated(provider):
    server = GoogleServer(provider, "002-peated")
    yield server
    server.close()


def new_person(provider, verified=True, name="Ada Lovelace"):
    sub = "sub-" + secrets.token_hex(6)
    email = f"{sub}@example.com"
    provider.put_user(sub, email, verified=verified, name=name)
    return sub, email


def test_L01_verified_google_email_links_to_an_account_with_a_verified_email(browser, peated, provider):
    sub, email = new_person(provider)
    peated.create_user(email, "Ada Lovelace", "correct horse battery")
    driver = browser()
    google_sign_in(driver, peated, sub)
    landed(driver, peated, "/home")
    assert el(driver, "user-email").text == email
    assert password_tokens(peated, email, "correct horse battery").status_code == 200
    assert "rule=verified_email" in peated.log


def test_L02_unverified_google_email_never_links_and_asks_for_the_password_first(browser, peated, provider):
    sub, email = new_person(provider, verified=False)
    peated.create_user(email, "Ada Lovelace", "correct horse battery")
    driver = browser()
    google_sign_in(driver, peated, sub)
    url = landed(driver, peated, "/login")
    assert "signin=link_required&provider=google" in url
    assert visible_text(driver, "google-error").startswith("An account with this email already exists.")
    assert password_tokens(peated, email, "correct horse battery").status_code == 200


def test_L03_verified_google_email_claims_an_unverified_account_removing_its_password(browser, peated, provider):
    sub, email = new_person(provider)
    peated.cli("users", "create", "--email", email, "--name", "Squatter", "--password-stdin", "--unverified-email",
               stdin="squatters password")
    # Peated requires a verified email, so the squatter never gets a session (the claim's ending
    # of sessions is proved on both engines by ProviderStorageContractTests).
    squatter = password_tokens(peated, email, "squatters password")
    assert squatter.status_code == 403 and squatter.json()["error"] == "email_not_verified"
    driver = browser()
    google_sign_in(driver, peated, sub)
    landed(driver, peated, "/home")
    assert password_tokens(peated, email, "squatters password").status_code == 401
    assert "unverified_account_claimed" in peated.log


def test_L07_an_address_verified_by_mail_counts_as_verified_for_linking(browser, peated, provider):
    sub, email = new_person(provider)
    signed_up = requests.post(peated.url + "/api/auth/signup", json={"email": email, "password": "a long and quiet river", "name": "Ada"}, timeout=10)
    assert signed_up.status_code == 202
    code = wait_for_mail(peated, email)["code"]
    verified = requests.post(peated.url + "/api/auth/email/verify", json={"email": email, "code": code}, timeout=10)
    assert verified.status_code == 200
    driver = browser()
    google_sign_in(driver, peated, sub)
    landed(driver, peated, "/home")
    # Linked by rule 2 (a verified email), not claimed: the password the person chose still works.
    assert password_tokens(peated, email, "a long and quiet river").status_code == 200
    assert "rule=verified_email" in peated.log


def wait_for_mail(server, address, timeout=10):
    """The latest mail to `address` in the server's outbox."""
    import json
    import os
    import time
    deadline = time.time() + timeout
    while time.time() < deadline:
        if os.path.exists(server.mail_outbox):
            found = [json.loads(line) for line in open(server.mail_outbox).read().splitlines() if json.loads(line)["to"] == address]
            if found:
                return found[-1]
        time.sleep(0.05)
    raise AssertionError(f"no mail to {address}")


def test_L04_no_match_creates_an_account_and_the_same_sub_signs_in_to_it_again(browser, peated, provider):
    sub, email = new_person(provider)
    first = requests.post(peated.url + "/auth/google", json={"code": provider.native_code(sub), "redirect_uri": "http://127.0.0.1:9/callback"}, timeout=10)
    assert first.status_code == 200 and first.json()["isNewUser"] is True
    provider.put_user(sub, "changed-" + email)
    again = requests.post(peated.url + "/auth/google", json={"code": provider.native_code(sub), "redirect_uri": "http://127.0.0.1:9/callback"}, timeout=10)
    assert again.status_code == 200 and again.json()["isNewUser"] is False
    assert again.json()["user"]["id"] == first.json()["user"]["id"]


def test_L05_link_and_unlink_google_from_home(browser, peated, provider):
    sub, _ = new_person(provider)
    email = f"linker-{secrets.token_hex(4)}@example.org"
    peated.create_user(email, "Link Er", "linker password")
    driver = browser()
    open_login(driver, peated)
    type_into(driver, "email", email)
    type_into(driver, "password", "linker password")
    el(driver, "submit").click()
    landed(driver, peated, "/home")
    assert el(driver, "google-status").text == "Not linked"
    el(driver, "link-google").click()
    wait_for(driver, lambda d: d.current_url.startswith(provider.url))
    approve(driver, sub)
    landed(driver, peated, "/home")
    assert el(driver, "google-status").text == "Linked"
    assert el(driver, "user-email").text == email
    click_and_land(driver, el(driver, "unlink-google"), peated, "/home/google/unlink")
    assert el(driver, "notice").text == "Unlink Google? You will no longer be able to sign in with it."
    click_and_land(driver, el(driver, "submit"), peated, "/home")
    assert el(driver, "google-status").text == "Not linked"


def test_L06_the_last_way_in_cannot_be_unlinked(browser, peated, provider):
    sub, _ = new_person(provider)
    driver = browser()
    google_sign_in(driver, peated, sub)
    landed(driver, peated, "/welcome")
    driver.get(peated.url + "/home")
    click_and_land(driver, el(driver, "unlink-google"), peated, "/home/google/unlink")
    click_and_land(driver, el(driver, "submit"), peated, "/home")
    assert el(driver, "google-status").text == "Linked"
    assert visible_text(driver, "google-error") == "Add another way to sign in before removing this one."


# --- Seed 002's POST /auth/google --------------------------------------------------------------

def test_P01_seed002_post_auth_google_with_a_real_code(peated, provider):
    sub, email = new_person(provider, name="Peated Fan")
    response = requests.post(peated.url + "/auth/google", json={"code": provider.native_code(sub), "redirect_uri": "http://127.0.0.1:9/callback"}, timeout=10)
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"accessToken", "refreshToken", "user", "expires_in", "isNewUser"}
    assert body["user"]["email"] == email
    assert response.headers["Cache-Control"] == "no-store"
    me = requests.get(peated.url + "/api/me", headers={"Authorization": "Bearer " + body["accessToken"]}, timeout=10)
    assert me.json()["email"] == email


def test_P02_seed002_post_auth_google_with_a_garbage_code_is_authentication_failed(peated):
    response = requests.post(peated.url + "/auth/google", json={"code": "garbage-" + secrets.token_hex(8)}, timeout=10)
    assert response.status_code == 401
    assert response.json() == {"error": "provider_code_rejected", "message": "Authentication failed. Please try again."}


def test_P03_seed002_code_is_single_use(peated, provider):
    sub, _ = new_person(provider)
    code = provider.native_code(sub)
    body = {"code": code, "redirect_uri": "http://127.0.0.1:9/callback"}
    assert requests.post(peated.url + "/auth/google", json=body, timeout=10).status_code == 200
    assert requests.post(peated.url + "/auth/google", json=body, timeout=10).status_code == 401


# --- The official supabase-auth client -----------------------------------------------------------

def test_S01_supabase_auth_client_signs_in_with_an_id_token(peated, provider):
    sub, email = new_person(provider)
    raw = secrets.token_urlsafe(16)
    token = provider.id_token(sub, nonce=sha256_hex(raw))
    client = SyncGoTrueClient(url=peated.url + "/auth/v1", headers={"apikey": "anon-test-key"}, auto_refresh_token=False)
    result = client.sign_in_with_id_token({"provider": "google", "token": token, "nonce": raw})
    assert result.user.email == email
    assert result.session.access_token and result.session.refresh_token
    assert client.get_user().user.email == email


# --- The button: size, name, busy state, back-forward cache, axe-core ----------------------------

def test_B01_button_is_at_least_48px_high_and_keeps_its_name_while_busy(browser, peated):
    driver = browser()
    open_login(driver, peated)
    button = el(driver, "google")
    assert button.tag_name == "button"
    assert button.size["height"] >= 48
    name = button.text
    assert name == "Sign in with Google"
    driver.execute_script("document.getElementById('google-form').addEventListener('submit', e => e.preventDefault())")
    button.click()
    assert button.get_attribute("aria-busy") == "true"
    assert button.text == name
    assert el(driver, "email").get_attribute("disabled") == "true"
    assert el(driver, "submit").get_attribute("disabled") == "true"
    spinner = button.find_element("css selector", ".spinner")
    assert spinner.get_attribute("aria-hidden") == "true"


def test_B02_back_from_the_provider_resets_the_button(browser, peated):
    driver = browser()
    press_google(driver, peated)
    driver.back()
    wait_for(driver, lambda d: d.current_url.startswith(peated.url + "/login"))
    wait_for(driver, lambda d: el(d, "google").get_attribute("aria-busy") != "true")
    assert el(driver, "email").get_attribute("disabled") is None
    assert el(driver, "google").text == "Sign in with Google"


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("state", ["idle", "busy", "failed", "link-required", "home-linked", "profile"])
def test_B03_axe_finds_no_violations_in_any_google_state(browser, peated, provider, axe_source, state, theme):
    driver = browser(dark=theme == "dark")
    if state == "idle":
        open_login(driver, peated)
    elif state == "busy":
        open_login(driver, peated)
        driver.execute_script("document.getElementById('google-form').addEventListener('submit', e => e.preventDefault())")
        el(driver, "google").click()
    elif state == "failed":
        driver.get(peated.url + "/login?signin=failed&provider=google")
    elif state == "link-required":
        driver.get(peated.url + "/login?signin=link_required&provider=google")
    else:
        sub, _ = new_person(provider)
        google_sign_in(driver, peated, sub)
        landed(driver, peated, "/welcome")
        if state == "home-linked":
            driver.get(peated.url + "/home")
    violations = axe_violations(driver, axe_source)
    assert violations == [], [(v["id"], v.get("help"), [n.get("target") for n in v.get("nodes", [])]) for v in violations]


def supabase_pkce_browser(provider, url, sub):
    """The browser's part of a Supabase OAuth sign-in: /authorize, the provider, the callback;
    returns where the app is sent back to."""
    start = requests.get(url, allow_redirects=False, timeout=10)
    assert start.status_code == 302, start.text
    back = requests.post(start.headers["Location"], data={"sub": sub}, allow_redirects=False, timeout=10).headers["Location"]
    cookie = f"__Host-gatehouse-oidc={start.cookies['__Host-gatehouse-oidc']}"
    answer = requests.get(back, headers={"Cookie": cookie}, allow_redirects=False, timeout=10)
    assert answer.status_code == 302, answer.text
    return answer.headers["Location"]


def test_S02_supabase_auth_client_pkce_oauth_flow_through_authorize_and_code_exchange(peated, provider):
    sub, email = new_person(provider)
    client = SyncGoTrueClient(url=peated.url + "/auth/v1", headers={"apikey": "anon-test-key"}, auto_refresh_token=False,
                              flow_type="pkce")
    oauth = client.sign_in_with_oauth({"provider": "google", "options": {"redirect_to": "http://127.0.0.1:5173/callback"}})
    back = supabase_pkce_browser(provider, oauth.url, sub)
    assert back.startswith("http://127.0.0.1:5173/callback?")
    code = urllib.parse.parse_qs(urllib.parse.urlparse(back).query)["code"][0]
    result = client.exchange_code_for_session({"auth_code": code})
    assert result.user.email == email and result.session.access_token
    again = requests.post(peated.url + "/auth/v1/token?grant_type=pkce", headers={"apikey": "anon-test-key"},
                          json={"auth_code": code, "code_verifier": "v" * 43}, timeout=10)
    assert again.status_code == 404 and again.json()["error_code"] == "flow_state_not_found"


def test_S03_supabase_pkce_code_with_the_wrong_verifier_is_refused(peated, provider):
    sub, _ = new_person(provider)
    client = SyncGoTrueClient(url=peated.url + "/auth/v1", headers={"apikey": "anon-test-key"}, auto_refresh_token=False,
                              flow_type="pkce")
    oauth = client.sign_in_with_oauth({"provider": "google", "options": {"redirect_to": "http://127.0.0.1:5173/callback"}})
    back = supabase_pkce_browser(provider, oauth.url, sub)
    code = urllib.parse.parse_qs(urllib.parse.urlparse(back).query)["code"][0]
    refused = requests.post(peated.url + "/auth/v1/token?grant_type=pkce", headers={"apikey": "anon-test-key"},
                            json={"auth_code": code, "code_verifier": "w" * 43}, timeout=10)
    assert refused.status_code == 404 and refused.json()["error_code"] == "flow_state_not_found"


def test_S04_authorize_refuses_a_redirect_that_is_not_allowed(peated):
    response = requests.get(peated.url + "/auth/v1/authorize", params={
        "provider": "google", "redirect_to": "https://evil.example.com/callback", "code_challenge": "c" * 43,
        "code_challenge_method": "s256"}, allow_redirects=False, timeout=10)
    assert response.status_code == 400
    assert "redirect_to" in response.json()["msg"]
