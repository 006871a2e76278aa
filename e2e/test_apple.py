"""Issue 38: Sign in with Apple against a local stand-in that speaks Apple's protocol from another
origin: the web flow's cross-site form POST (the first time with a name, then without), the
client secret signed with a `.p8` key the test generated, Apple's button beside Google's (both
themes, axe), native identity tokens over REST, GraphQL and supabase-auth, and the refusals."""
import html
import json
import os
import re
import secrets
import sqlite3
import subprocess
import tempfile
import urllib.parse

import pytest
import requests

from supabase_auth import SyncGoTrueClient

from apple_standin import BUNDLE_ID, KEY_ID, SERVICES_ID, TEAM_ID, Apple, team_key
from conftest import BIN, ROOT, Server, free_port
from google_flow import click_and_land, landed, visible_text
from google_provider import WEB_CLIENT, provider, sha256_hex
from pages import el, wait_for
from test_accessibility import axe_violations


@pytest.fixture(scope="module")
def apple():
    folder = tempfile.mkdtemp(prefix="gatehouse-apple-")
    key_path, public = team_key(folder)
    standin = Apple(public)
    standin.key_path = key_path
    yield standin
    standin.stop()


@pytest.fixture(scope="module")
def app(apple, provider):
    """Peated's copy with Apple above Google (App Store Review Guideline 4.8), then the email form."""
    config = json.loads((ROOT / "examples/002-peated/gatehouse.json").read_text())
    config["login"].pop("logo", None)
    config["signIn"] = {"methods": ["apple", "google", "email"]}
    config["accounts"]["requireVerifiedEmail"] = False
    config["providers"] = {
        "apple": {"servicesId": SERVICES_ID, "bundleIds": [BUNDLE_ID], "teamId": TEAM_ID, "keyId": KEY_ID,
                  "privateKeyFile": os.path.basename(apple.key_path), "issuer": apple.url},
        "google": {"clientIds": [WEB_CLIENT], "issuer": provider.url},
    }
    path = os.path.join(os.path.dirname(apple.key_path), "gatehouse.json")
    with open(path, "w") as file:
        json.dump(config, file)
    port = free_port()
    server = Server(path, port=port, extra=("--public-url", f"http://localhost:{port}", "--anon-key", "anon-test-key",
                                            "--allow-redirect", "http://127.0.0.1/callback",
                                            "--service-role-key", SERVICE_ROLE_KEY),
                    environment={"GATEHOUSE_PROVIDER_GOOGLE_CLIENT_SECRET": "provider-secret"})
    yield server
    server.close()


SERVICE_ROLE_KEY = "apple-service-role-key-0123456789abcdef01"


def new_person(apple, first="Jane", last="Appleseed", private=False):
    sub = "001234." + secrets.token_hex(8)
    email = f"{secrets.token_hex(4)}@privaterelay.appleid.com" if private else f"{sub}@example.com"
    apple.put_user(sub, email, private=private, first=first, last=last)
    return sub, email


def sign_in_at_apple(driver, app, apple, sub):
    driver.get(app.url + "/login")
    wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    el(driver, "apple").click()
    wait_for(driver, lambda d: d.current_url.startswith(apple.url))
    el(driver, f"continue-{sub}").click()


def test_AP01_first_sign_in_posts_the_name_across_sites_and_the_second_comes_without_it(browser, app, apple):
    sub, email = new_person(apple)
    before = len(apple.recorded["token"])
    driver = browser(width=390, height=844)
    sign_in_at_apple(driver, app, apple, sub)
    landed(driver, app, "/welcome")
    assert el(driver, "name").get_attribute("value") == "Jane Appleseed"
    click_and_land(driver, el(driver, "save"), app, "/home")
    assert el(driver, "user-name").text == "Jane Appleseed" and el(driver, "user-email").text == email
    assert el(driver, "apple-status").text == "Linked"
    authorize = apple.recorded["authorize"][-1]
    assert authorize["response_mode"] == "form_post" and authorize["scope"] == "name email"
    assert authorize["redirect_uri"] == app.url + "/auth/apple/callback" and authorize["nonce"] and "code_challenge" not in authorize
    token = apple.recorded["token"][before]
    assert "secret_error" not in token, token
    claims = token["secret_claims"]
    assert claims["iss"] == TEAM_ID and claims["sub"] == SERVICES_ID and claims["aud"] == apple.url
    assert 0 < claims["exp"] - claims["iat"] <= 182 * 24 * 3600
    # Another browser: Apple sends no name the second time; the account is the same, straight to Home.
    again = browser()
    sign_in_at_apple(again, app, apple, sub)
    landed(again, app, "/home")
    assert el(again, "user-name").text == "Jane Appleseed"
    # The secret is made once and reused, not signed anew for every sign-in.
    assert apple.recorded["token"][-1]["client_secret"] == token["client_secret"]


def test_AP02_a_first_authorisation_without_a_name_asks_for_it_on_the_profile_step(browser, app, apple):
    sub, email = new_person(apple, first=None, last=None, private=True)
    driver = browser()
    sign_in_at_apple(driver, app, apple, sub)
    landed(driver, app, "/welcome")
    assert el(driver, "name").get_attribute("value") == "" and el(driver, "name").get_attribute("required") == "true"
    for key in "Relay Person":
        el(driver, "name").send_keys(key)
    click_and_land(driver, el(driver, "save"), app, "/home")
    assert el(driver, "user-email").text == email


def test_AP03_cancelling_at_apple_posts_back_and_lands_quietly_on_the_login_page(browser, app, apple):
    new_person(apple)
    driver = browser()
    driver.get(app.url + "/login")
    el(driver, "apple").click()
    wait_for(driver, lambda d: d.current_url.startswith(apple.url))
    el(driver, "cancel").click()
    url = landed(driver, app, "/login")
    assert "signin=cancelled&provider=apple" in url
    assert visible_text(driver, "apple-error") is None


def test_AP04_a_posted_answer_without_this_browsers_flow_cookie_is_refused(app, apple):
    sub, _ = new_person(apple)
    start = requests.get(app.url + "/auth/apple/start", allow_redirects=False, timeout=10)
    cookie = start.cookies["__Host-gatehouse-oidc"]
    assert "samesite=none" in start.headers["Set-Cookie"].lower() and "secure" in start.headers["Set-Cookie"].lower()
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(start.headers["Location"]).query))
    page = requests.post(apple.url + "/auth/authorize", data={**query, "sub": sub}, timeout=10).text
    fields = {html.unescape(name): html.unescape(value) for name, value in re.findall(r'name="([^"]*)" value="([^"]*)"', page)}
    assert set(fields) >= {"code", "state", "user"}
    forged = requests.post(app.url + "/auth/apple/callback", data=fields, allow_redirects=False, timeout=10)
    assert forged.status_code == 200 and "/login?signin=rejected&amp;provider=apple" in forged.text
    assert "Set-Cookie" not in forged.headers or "gatehouse-session" not in forged.headers["Set-Cookie"]
    # The flow was spent by that attempt: the real browser cannot replay it either.
    replay = requests.post(app.url + "/auth/apple/callback", data=fields, headers={"Cookie": f"__Host-gatehouse-oidc={cookie}"},
                           allow_redirects=False, timeout=10)
    assert "/login?signin=rejected&amp;provider=apple" in replay.text
    assert requests.get(app.url + "/auth/apple/callback", params={"state": "x", "code": "y"}, timeout=10).status_code == 405


def test_AP05_apples_button_is_black_on_light_white_on_dark_as_tall_as_googles_and_passes_axe(browser, app, axe_source):
    for dark, background in ((False, "rgb(0, 0, 0)"), (True, "rgb(255, 255, 255)")):
        driver = browser(width=390, height=844, dark=dark)
        driver.get(app.url + "/login")
        button, google = el(driver, "apple"), el(driver, "google")
        assert button.text == "Sign in with Apple" and google.text == "Sign in with Google"
        assert driver.execute_script("return getComputedStyle(arguments[0]).backgroundColor", button) == background
        assert button.size["height"] == google.size["height"] >= 48
        assert button.location["y"] < google.location["y"] < el(driver, "email").location["y"]
        assert axe_violations(driver, axe_source) == []


def test_AP06_native_identity_tokens_sign_in_over_rest_graphql_and_supabase_auth(app, apple):
    sub, email = new_person(apple)
    raw = secrets.token_urlsafe(16)
    first = requests.post(app.url + "/auth/apple", json={
        "id_token": apple.id_token(sub, BUNDLE_ID, nonce=sha256_hex(raw)), "nonce": raw, "name": "Native Person"}, timeout=10)
    assert first.status_code == 200, first.text
    assert first.json()["isNewUser"] and first.json()["user"]["name"] == "Native Person" and first.json()["user"]["email"] == email
    raw = secrets.token_urlsafe(16)
    query = ("mutation($d: AppleSignInInput!) { signInWithApple(data: $d) { token user { email } } }")
    graphql = requests.post(app.url + "/graphql", json={"query": query, "variables": {"d": {
        "idToken": apple.id_token(sub, BUNDLE_ID, nonce=sha256_hex(raw)), "nonce": raw}}}, timeout=10)
    assert graphql.status_code == 200 and "data" in graphql.json(), graphql.text
    assert graphql.json()["data"]["signInWithApple"]["user"]["email"] == email, graphql.text
    raw = secrets.token_urlsafe(16)
    client = SyncGoTrueClient(url=app.url + "/auth/v1", headers={"apikey": "anon-test-key"}, auto_refresh_token=False)
    result = client.sign_in_with_id_token({"provider": "apple", "token": apple.id_token(sub, BUNDLE_ID, nonce=sha256_hex(raw)),
                                           "nonce": raw})
    assert result.user.email == email and "apple" in {i.provider for i in result.user.identities}


@pytest.mark.parametrize("case", ["audience", "issuer", "nonce", "expired", "unknown_kid"])
def test_AP07_every_refusal_of_an_apple_identity_token(app, apple, case):
    sub, _ = new_person(apple)
    raw = secrets.token_urlsafe(16)
    nonce = sha256_hex(raw)
    token = {
        "audience": lambda: apple.id_token(sub, "com.someone.else", nonce=nonce),
        "issuer": lambda: apple.id_token(sub, BUNDLE_ID, nonce=nonce, iss="https://appleid.apple.com.evil.example"),
        "nonce": lambda: apple.id_token(sub, BUNDLE_ID, nonce=sha256_hex("another")),
        "expired": lambda: apple.id_token(sub, BUNDLE_ID, nonce=nonce, lifetime=-120),
        "unknown_kid": lambda: apple.id_token(sub, BUNDLE_ID, nonce=nonce).replace(
            apple.id_token(sub, BUNDLE_ID, nonce=nonce).split(".")[0], "eyJhbGciOiJSUzI1NiIsImtpZCI6Im5vcGUifQ"),
    }[case]()
    refused = requests.post(app.url + "/auth/apple", json={"id_token": token, "nonce": raw}, timeout=10)
    assert refused.status_code == 401, refused.text
    assert refused.json()["error"] == "invalid_id_token"


def web_sign_in(browser, app, apple, sub):
    """A first web sign-in through the profile step: Apple's code exchange gave a refresh token."""
    driver = browser()
    sign_in_at_apple(driver, app, apple, sub)
    landed(driver, app, "/welcome")
    click_and_land(driver, el(driver, "save"), app, "/home")
    return driver


def apple_user_id(app, sub):
    with sqlite3.connect(app.database) as db:
        row = db.execute("SELECT user_id FROM identities WHERE provider = 'apple' AND subject = ?", (sub,)).fetchone()
    return row[0] if row else None


def test_AP08_deleting_the_account_revokes_its_apple_token_and_the_relay_flag_is_kept(browser, app, apple):
    sub, _ = new_person(apple, private=True)
    web_sign_in(browser, app, apple, sub)
    user_id = apple_user_id(app, sub)
    with sqlite3.connect(app.database) as db:
        private, sealed = db.execute("SELECT private_email, sealed_token FROM provider_grants WHERE subject = ?", (sub,)).fetchone()
    issued = [token for token, owner in apple.refresh_tokens.items() if owner == sub]
    assert private == 1 and sealed and issued and issued[0] not in sealed, "the refresh token is stored sealed"
    before = len(apple.recorded["revoke"])
    deleted = requests.delete(f"{app.url}/auth/v1/admin/users/{user_id}", headers={
        "apikey": SERVICE_ROLE_KEY, "Authorization": "Bearer " + SERVICE_ROLE_KEY}, timeout=10)
    assert deleted.status_code == 200, deleted.text
    revoked = apple.recorded["revoke"][before:]
    assert [r["token"] for r in revoked] == issued and revoked[0]["token_type_hint"] == "refresh_token"
    assert "secret_error" not in revoked[0] and revoked[0]["client_id"] == SERVICES_ID
    assert apple_user_id(app, sub) is None


def audit(app, user_id):
    import json as _json
    lines = app.cli("audit", "--json", "--type", "identity.").stdout.splitlines()
    return [entry for entry in map(_json.loads, lines) if entry.get("user_id") == user_id]


def test_AP09_apples_notices_unlink_end_sessions_delete_a_sole_identity_and_are_audited(browser, app, apple):
    # An account with a password beside Apple: consent-revoked ends its sessions and unlinks Apple.
    sub, email = new_person(apple)
    native = requests.post(app.url + "/auth/apple", json={"id_token": apple.id_token(sub, BUNDLE_ID)}, timeout=10).json()
    assert native["refreshToken"]
    user_id = apple_user_id(app, sub)
    app.cli("users", "set-password", "--email", email, "--password-stdin", "--allow-weak-password", stdin="correct horse battery")
    for kind in ("email-disabled", "consent-revoked"):
        answer = requests.post(app.url + "/auth/apple/notifications", json={"payload": apple.notice(sub, kind)}, timeout=10)
        assert answer.status_code == 200, answer.text
    # After the notice the session the Apple sign-in opened cannot refresh.
    refresh = requests.post(app.url + "/api/auth/refresh", json={"refresh_token": native["refreshToken"]}, timeout=10)
    assert refresh.status_code == 401, refresh.text
    assert apple_user_id(app, sub) is None
    assert requests.post(app.url + "/api/auth/login", json={"email": email, "password": "correct horse battery"}, timeout=10).status_code == 200
    notices = [(e["type"], e.get("details", {}).get("notice")) for e in audit(app, user_id)]
    assert ("identity.provider_notice", "email-disabled") in notices and ("identity.provider_notice", "consent-revoked") in notices
    assert ("identity.unlinked", None) in notices
    # An Apple-only account: account-delete deletes it.
    only, _ = new_person(apple)
    requests.post(app.url + "/auth/apple", json={"id_token": apple.id_token(only, BUNDLE_ID)}, timeout=10)
    assert apple_user_id(app, only)
    assert requests.post(app.url + "/auth/apple/notifications", json={"payload": apple.notice(only, "account-delete")},
                         timeout=10).status_code == 200
    assert apple_user_id(app, only) is None
    # A notice signed by anyone else, or for another app, is refused and changes nothing.
    from cryptography.hazmat.primitives.asymmetric import rsa
    other, _ = new_person(apple)
    requests.post(app.url + "/auth/apple", json={"id_token": apple.id_token(other, BUNDLE_ID)}, timeout=10)
    forged = apple.notice(other, "account-delete", key=rsa.generate_private_key(public_exponent=65537, key_size=2048))
    assert requests.post(app.url + "/auth/apple/notifications", json={"payload": forged}, timeout=10).status_code == 401
    foreign = apple.notice(other, "account-delete", audience="com.someone.else")
    assert requests.post(app.url + "/auth/apple/notifications", json={"payload": foreign}, timeout=10).status_code == 401
    assert requests.post(app.url + "/auth/apple/notifications", json={"payload": ""}, timeout=10).status_code == 400
    assert apple_user_id(app, other)


def test_AP10_urbannests_example_shows_apple_after_google_below_its_phone_form(browser, apple, provider):
    """UrbanNest's own app file (phone, Google, Apple) with both providers configured."""
    config = json.loads((ROOT / "examples/004-urbannest/gatehouse.json").read_text())
    config["login"].pop("logo", None)
    assert config["signIn"]["methods"] == ["phone", "google", "apple"]
    config["providers"] = {
        "apple": {"servicesId": SERVICES_ID, "teamId": TEAM_ID, "keyId": KEY_ID, "privateKeyFile": apple.key_path, "issuer": apple.url},
        "google": {"clientIds": [WEB_CLIENT], "issuer": provider.url},
    }
    path = os.path.join(tempfile.mkdtemp(prefix="gatehouse-urbannest-"), "gatehouse.json")
    with open(path, "w") as file:
        json.dump(config, file)
    port = free_port()
    server = Server(path, port=port, extra=("--public-url", f"http://localhost:{port}"),
                    environment={"GATEHOUSE_PROVIDER_GOOGLE_CLIENT_SECRET": "provider-secret"})
    try:
        driver = browser(width=390, height=844)
        driver.get(server.url + "/login")
        google, button = el(driver, "google"), el(driver, "apple")
        assert el(driver, "phone").location["y"] < google.location["y"] < button.location["y"]
        assert button.text == "Sign in with Apple" and button.size["height"] == google.size["height"]
    finally:
        server.close()


def test_AP11_cli_login_with_apple_through_its_posted_answer_and_the_loopback_redirect(app, apple):
    sub, email = new_person(apple, first="Terminal", last="Apple")
    home = tempfile.mkdtemp(prefix="gatehouse-cli-home-")
    environment = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": home, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"}
    process = subprocess.Popen([BIN, "login", "--provider", "apple", "--no-browser", "--server", app.url],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    url = process.stdout.readline().strip()
    assert url.startswith(app.url + "/auth/apple/start?"), url
    start = requests.get(url, allow_redirects=False, timeout=10)
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(start.headers["Location"]).query))
    page = requests.post(apple.url + "/auth/authorize", data={**query, "sub": sub}, timeout=10).text
    fields = {html.unescape(name): html.unescape(value) for name, value in re.findall(r'name="([^"]*)" value="([^"]*)"', page)}
    posted = requests.post(app.url + "/auth/apple/callback", data=fields, allow_redirects=False, timeout=10,
                           headers={"Cookie": f"__Host-gatehouse-oidc={start.cookies['__Host-gatehouse-oidc']}"})
    assert posted.status_code == 302 and posted.headers["Location"].startswith("http://127.0.0.1:"), posted.text
    requests.get(posted.headers["Location"], timeout=10)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert f"Signed in as Terminal Apple <{email}>" in out
