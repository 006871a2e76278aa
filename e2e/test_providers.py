"""Issue 38: the provider registry. GitHub (a local stand-in speaking its OAuth flow and user API)
and an app's own OpenID Connect issuer, `acme-sso` (oidc-provider-mock 0.4.8), beside the email
form: Chromium through each, the linking rules per provider, Home's link and unlink, a flow that
cannot be finished by another provider, the official supabase-auth client, and the CLI."""
import json
import os
import secrets
import subprocess
import tempfile
import urllib.parse

import pytest
import requests
from supabase_auth import SyncGoTrueClient

from conftest import BIN, ROOT, Server, free_port
from github_standin import CLIENT_ID as GITHUB_CLIENT, CLIENT_SECRET as GITHUB_SECRET, GitHub
from google_flow import approve, click_and_land, landed, password_tokens, visible_text
from google_provider import IOS_CLIENT, WEB_CLIENT, provider, sha256_hex
from pages import el, type_into, wait_for
from test_accessibility import axe_violations


@pytest.fixture(scope="module")
def github():
    standin = GitHub()
    yield standin
    standin.stop()


def app_file(github, provider, trust_acme=True, oidc_id="acme-sso"):
    """Peated's copy, with GitHub and an app's own issuer (Acme SSO) before the email form."""
    app = json.loads((ROOT / "examples/002-peated/gatehouse.json").read_text())
    app["login"].pop("logo", None)
    app["signIn"] = {"methods": ["github", oidc_id, "email"]}
    app["accounts"]["requireVerifiedEmail"] = False
    app["providers"] = {
        "github": {"clientId": GITHUB_CLIENT, "baseURL": github.url},
        oidc_id: {"type": "oidc", "issuer": provider.url, "clientIds": [WEB_CLIENT, IOS_CLIENT], "label": "Acme SSO",
                     "trustEmailVerified": trust_acme},
    }
    path = os.path.join(tempfile.mkdtemp(prefix="gatehouse-providers-"), "gatehouse.json")
    with open(path, "w") as file:
        json.dump(app, file)
    return path


def serve(github, provider, trust_acme=True, oidc_id="acme-sso"):
    port = free_port()
    return Server(app_file(github, provider, trust_acme, oidc_id), port=port, extra=(
        "--public-url", f"http://localhost:{port}", "--allow-redirect", "http://127.0.0.1/callback", "--anon-key", "anon-test-key"),
        environment={"GATEHOUSE_PROVIDER_GITHUB_CLIENT_SECRET": GITHUB_SECRET,
                     "GATEHOUSE_PROVIDER_ACME_SSO_CLIENT_SECRET": "acme-secret",
                     "GATEHOUSE_PROVIDER_KEYCLOAK_CLIENT_SECRET": "acme-secret"})


@pytest.fixture(scope="module")
def app(github, provider):
    server = serve(github, provider)
    server.github, server.provider = github, provider
    yield server
    server.close()


def github_person(github, verified=True, primary_verified=None, name="Grace Hopper"):
    login = "gh-" + secrets.token_hex(4)
    email = f"{login}@example.com"
    emails = [{"email": email, "primary": True, "verified": verified if primary_verified is None else primary_verified},
              {"email": f"{login}@work.example", "primary": False, "verified": True}]
    github.put_user(login, int.from_bytes(secrets.token_bytes(4), "big"), emails, name)
    return login, email


def press(driver, server, provider_id, expected_host):
    driver.get(server.url + "/login")
    wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    el(driver, provider_id).click()
    wait_for(driver, lambda d: d.current_url.startswith(expected_host))


def authorize_at_github(driver, login):
    el(driver, f"authorize-{login}").click()


def test_P01_the_login_page_offers_each_provider_in_the_app_files_order_and_passes_axe(browser, app, axe_source):
    for dark in (False, True):
        driver = browser(width=390, height=844, dark=dark)
        driver.get(app.url + "/login")
        buttons = driver.find_elements("css selector", ".providers button")
        assert [b.get_attribute("id") for b in buttons] == ["github", "acme-sso"]
        assert [b.text for b in buttons] == ["Sign in with GitHub", "Sign in with Acme SSO"]
        assert all(b.size["height"] >= 48 for b in buttons)
        # Before the email form (Peated's order), one divider between.
        assert driver.execute_script(
            "return document.getElementById('acme-sso').compareDocumentPosition(document.getElementById('email')) & 4") == 4
        assert axe_violations(driver, axe_source) == []


def test_P02_github_signs_up_then_signs_in_again_with_pkce_and_its_primary_verified_email(browser, app, github):
    login, email = github_person(github)
    before = len(github.recorded["token"])
    driver = browser(width=390, height=844)
    press(driver, app, "github", github.url)
    authorize_at_github(driver, login)
    landed(driver, app, "/welcome")
    click_and_land(driver, el(driver, "save"), app, "/home")
    assert el(driver, "user-email").text == email
    assert el(driver, "github-status").text == "Linked"
    assert el(driver, "acme-sso-status").text == "Not linked"
    authorize = github.recorded["authorize"][-1]
    token = github.recorded["token"][before]
    assert authorize["code_challenge_method"] == "S256" and authorize["code_challenge"] == sha256_b64(token["code_verifier"])
    assert "nonce" not in authorize and authorize["scope"] == "read:user user:email"
    assert authorize["redirect_uri"] == app.url + "/auth/github/callback"
    assert token["client_secret"] == GITHUB_SECRET
    # Signed out, the same GitHub account signs in to the same account, straight to Home.
    click_and_land(driver, el(driver, "sign-out"), app, "/login")
    press(driver, app, "github", github.url)
    authorize_at_github(driver, login)
    landed(driver, app, "/home")
    assert el(driver, "user-email").text == email
    assert "method=github" in app.log


def sha256_b64(text):
    import base64
    import hashlib
    return base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()


def test_P03_an_unverified_github_primary_email_never_links_to_the_account_that_owns_it(browser, app, github):
    login, email = github_person(github, primary_verified=False)
    app.create_user(email, "Owner", "correct horse battery")
    driver = browser()
    press(driver, app, "github", github.url)
    authorize_at_github(driver, login)
    landed(driver, app, "/welcome")
    click_and_land(driver, el(driver, "save"), app, "/home")
    # A new account without an email: GitHub's unverified primary address counts for nothing.
    assert not driver.find_elements("id", "user-email")
    owner = password_tokens(app, email, "correct horse battery").json()
    assert "access_token" in owner, owner
    identities = requests.get(app.url + "/auth/v1/user", headers={
        "apikey": "anon-test-key", "Authorization": "Bearer " + owner["access_token"]}, timeout=10).json()["identities"]
    assert [i["provider"] for i in identities] == ["email"]


def test_P04_cancelling_at_github_returns_to_the_login_page_quietly(browser, app, github):
    github_person(github)
    driver = browser()
    press(driver, app, "github", github.url)
    el(driver, "cancel").click()
    url = landed(driver, app, "/login")
    assert "signin=cancelled&provider=github" in url
    assert visible_text(driver, "github-error") is None
    assert el(driver, "github").get_attribute("aria-busy") != "true"


def test_P05_acme_sso_links_a_trusted_verified_email_and_home_links_and_unlinks_each_provider(browser, app, provider, github, axe_source):
    sub = "acme-" + secrets.token_hex(4)
    email = f"{sub}@acme.example"
    provider.put_user(sub, email, verified=True, name="Acme Person")
    app.create_user(email, "Acme Person", "correct horse battery")
    driver = browser(width=390, height=844)
    press(driver, app, "acme-sso", provider.url)
    approve(driver, sub)
    landed(driver, app, "/home")
    assert el(driver, "user-email").text == email
    assert el(driver, "acme-sso-status").text == "Linked"
    assert "rule=verified_email" in app.log
    # Link GitHub from Home, then unlink Acme SSO through its confirmation.
    login, _ = github_person(github)
    el(driver, "link-github").click()
    wait_for(driver, lambda d: d.current_url.startswith(github.url))
    authorize_at_github(driver, login)
    landed(driver, app, "/home")
    assert el(driver, "github-status").text == "Linked"
    rows = driver.find_elements("css selector", ".provider-row strong")
    assert [row.text for row in rows] == ["GitHub", "Acme SSO"]
    assert axe_violations(driver, axe_source) == []
    click_and_land(driver, el(driver, "unlink-acme-sso"), app, "/home/acme-sso/unlink")
    assert el(driver, "notice").text == "Unlink Acme SSO? You will no longer be able to sign in with it."
    click_and_land(driver, el(driver, "submit"), app, "/home")
    assert el(driver, "acme-sso-status").text == "Not linked"
    assert password_tokens(app, email, "correct horse battery").status_code == 200


def test_P06_an_untrusted_issuers_verified_email_asks_for_the_password_first(browser, github, provider):
    server = serve(github, provider, trust_acme=False)
    try:
        sub = "acme-" + secrets.token_hex(4)
        email = f"{sub}@acme.example"
        provider.put_user(sub, email, verified=True)
        server.create_user(email, "Owner", "correct horse battery")
        driver = browser()
        press(driver, server, "acme-sso", provider.url)
        approve(driver, sub)
        url = landed(driver, server, "/login")
        assert "signin=link_required&provider=acme-sso" in url
        assert visible_text(driver, "acme-sso-error") == (
            "An account with this email already exists. Sign in with your password, then link Acme SSO.")
    finally:
        server.close()


def test_P07_a_flow_begun_with_github_is_never_finished_by_acme_ssos_callback(app):
    start = requests.get(app.url + "/auth/github/start", allow_redirects=False, timeout=10)
    assert start.status_code == 302
    state = urllib.parse.parse_qs(urllib.parse.urlparse(start.headers["Location"]).query)["state"][0]
    cookie = f"__Host-gatehouse-oidc={start.cookies['__Host-gatehouse-oidc']}"
    crossed = requests.get(app.url + "/auth/acme-sso/callback", params={"state": state, "code": "x" * 20},
                           headers={"Cookie": cookie}, allow_redirects=False, timeout=10)
    assert crossed.status_code == 200 and "/login?signin=rejected&amp;provider=acme-sso" in crossed.text
    unknown = requests.get(app.url + "/auth/okta/start", allow_redirects=False, timeout=10)
    assert unknown.status_code == 404 and unknown.headers["Content-Type"].startswith("application/json")


def browse(url, act):
    """The browser's part of an app's flow: the start, the provider (`act` answers its page),
    the callback with the flow cookie; returns where the app is sent back to."""
    start = requests.get(url, allow_redirects=False, timeout=10)
    assert start.status_code == 302, start.text
    back = act(start.headers["Location"])
    cookie = f"__Host-gatehouse-oidc={start.cookies['__Host-gatehouse-oidc']}"
    answer = requests.get(back, headers={"Cookie": cookie}, allow_redirects=False, timeout=10)
    assert answer.status_code == 302, answer.text
    return answer.headers["Location"]


@pytest.fixture(scope="module")
def keycloak_app(github, provider):
    """supabase-auth takes only the provider names GoTrue knows: an app's own OpenID issuer is
    reached from it under one of them, here `keycloak` (oidc-provider-mock again)."""
    server = serve(github, provider, oidc_id="keycloak")
    yield server
    server.close()


def test_P08_supabase_auth_signs_in_with_an_apps_own_issuer_by_oauth_and_by_id_token(keycloak_app, provider):
    app = keycloak_app
    sub = "acme-" + secrets.token_hex(4)
    provider.put_user(sub, f"{sub}@acme.example", verified=True, name="Supa Person")
    client = SyncGoTrueClient(url=app.url + "/auth/v1", headers={"apikey": "anon-test-key"}, auto_refresh_token=False,
                              flow_type="pkce")
    oauth = client.sign_in_with_oauth({"provider": "keycloak", "options": {"redirect_to": "http://127.0.0.1:5173/callback"}})
    back = browse(oauth.url, lambda authorize: requests.post(
        authorize, data={"sub": sub}, allow_redirects=False, timeout=10).headers["Location"])
    code = urllib.parse.parse_qs(urllib.parse.urlparse(back).query)["code"][0]
    result = client.exchange_code_for_session({"auth_code": code})
    assert result.user.email == f"{sub}@acme.example"
    assert {i.provider for i in result.user.identities} >= {"oidc:keycloak"}
    raw = secrets.token_urlsafe(16)
    token = provider.id_token(sub, client_id=IOS_CLIENT, nonce=sha256_hex(raw))
    other = SyncGoTrueClient(url=app.url + "/auth/v1", headers={"apikey": "anon-test-key"}, auto_refresh_token=False)
    again = other.sign_in_with_id_token({"provider": "keycloak", "token": token, "nonce": raw})
    assert again.user.id == result.user.id
    refused = requests.post(app.url + "/auth/v1/token?grant_type=id_token", headers={"apikey": "anon-test-key"},
                            json={"provider": "github", "id_token": token}, timeout=10)
    assert refused.status_code == 400


def test_P09_cli_login_with_github_through_the_loopback_redirect(app, github):
    login, email = github_person(github, name="Terminal Hopper")
    home = tempfile.mkdtemp(prefix="gatehouse-cli-home-")
    environment = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": home, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"}
    process = subprocess.Popen([BIN, "login", "--provider", "github", "--no-browser", "--server", app.url],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    url = process.stdout.readline().strip()
    assert url.startswith(app.url + "/auth/github/start?"), url
    loopback = browse(url, lambda authorize: requests.post(
        authorize, data={**dict(urllib.parse.parse_qsl(urllib.parse.urlparse(authorize).query)), "login": login},
        allow_redirects=False, timeout=10).headers["Location"])
    assert loopback.startswith("http://127.0.0.1:")
    requests.get(loopback, timeout=10)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert f"Signed in as Terminal Hopper <{email}>" in out
    bad = subprocess.run([BIN, "login", "--provider", "Not A Provider"], capture_output=True, text=True, timeout=30)
    assert bad.returncode != 0 and len(bad.stderr.strip().splitlines()) == 1 and "--provider" in bad.stderr


def test_P10_supabase_auth_links_and_unlinks_an_identity_and_keeps_the_last_way_in(keycloak_app, github):
    app = keycloak_app
    email = f"link-{secrets.token_hex(4)}@example.com"
    app.create_user(email, "Link Person", "correct horse battery")
    client = SyncGoTrueClient(url=app.url + "/auth/v1", headers={"apikey": "anon-test-key"}, auto_refresh_token=False)
    client.sign_in_with_password({"email": email, "password": "correct horse battery"})
    login, _ = github_person(github)
    linking = client.link_identity({"provider": "github", "options": {"redirect_to": "http://127.0.0.1:5173/callback"}})
    assert linking.url.startswith(app.url + "/auth/github/continue?")
    back = browse(linking.url, lambda authorize: requests.post(
        authorize, data={**dict(urllib.parse.parse_qsl(urllib.parse.urlparse(authorize).query)), "login": login},
        allow_redirects=False, timeout=10).headers["Location"])
    assert back == "http://127.0.0.1:5173/callback"
    identities = client.get_user_identities().identities
    assert sorted(i.provider for i in identities) == ["email", "github"]
    # The same handed-over address cannot be used twice.
    again = requests.get(linking.url, allow_redirects=False, timeout=10)
    replay = requests.get(app.url + "/auth/github/callback", params={"state": "x", "code": "y"},
                          headers={"Cookie": f"__Host-gatehouse-oidc={again.cookies.get('__Host-gatehouse-oidc', '')}"}, timeout=10)
    assert "signin=rejected" in replay.text
    github_identity = next(i for i in identities if i.provider == "github")
    client.unlink_identity(github_identity)
    assert [i.provider for i in client.get_user_identities().identities] == ["email"]
    # An account whose only way in is GitHub (its verified email has no password) keeps it.
    only, _ = github_person(github)
    from supabase_auth.errors import AuthApiError
    oauth = SyncGoTrueClient(url=app.url + "/auth/v1", headers={"apikey": "anon-test-key"}, auto_refresh_token=False, flow_type="pkce")
    started = oauth.sign_in_with_oauth({"provider": "github", "options": {"redirect_to": "http://127.0.0.1:5173/callback"}})
    code_back = browse(started.url, lambda authorize: requests.post(
        authorize, data={**dict(urllib.parse.parse_qsl(urllib.parse.urlparse(authorize).query)), "login": only},
        allow_redirects=False, timeout=10).headers["Location"])
    oauth.exchange_code_for_session({"auth_code": urllib.parse.parse_qs(urllib.parse.urlparse(code_back).query)["code"][0]})
    sole = oauth.get_user_identities().identities
    assert sorted(i.provider for i in sole) == ["email", "github"]
    with pytest.raises(AuthApiError) as refused:
        oauth.unlink_identity(next(i for i in sole if i.provider == "github"))
    assert refused.value.code == "single_identity_not_deletable"
