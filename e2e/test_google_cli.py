"""`gatehouse login --google` end to end: the real binary, the real server and oidc-provider-mock
0.4.8. The browser's part is played by an HTTP client that keeps cookies, as a browser would;
the terminal's loopback redirect (127.0.0.1, a random port, one request) is the real one."""
import os
import secrets
import signal
import subprocess
import tempfile
import urllib.parse

import pytest
import requests

from conftest import BIN, ROOT
from google_provider import GoogleServer, provider


@pytest.fixture(scope="module")
def peated(provider):
    server = GoogleServer(provider, "002-peated")
    yield server
    server.close()


def start_login(server, config="002-peated"):
    home = tempfile.mkdtemp(prefix="gatehouse-cli-home-")
    environment = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": home, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"}
    process = subprocess.Popen(
        [BIN, "login", "--google", "--no-browser", "--server", server.url, "--config", str(ROOT / "examples" / config / "gatehouse.json")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    url = process.stdout.readline().strip()
    assert url.startswith(server.url + "/auth/google/start?"), url
    return process, url, environment


def browse_to_provider(url):
    """The browser: open the address, arrive at the provider's page; returns (its cookies, provider URL).

    The flow cookie is `Secure`; a browser sends it to http://localhost (a secure context),
    `requests` would not, so it is carried by hand."""
    response = requests.get(url, allow_redirects=False, timeout=10)
    assert response.status_code == 302
    return {"__Host-gatehouse-oidc": response.cookies["__Host-gatehouse-oidc"]}, response.headers["Location"]


def follow_back(cookies, location):
    """The browser follows the provider's redirect to the server, and the server's to the terminal."""
    header = "; ".join(f"{name}={value}" for name, value in cookies.items())
    response = requests.get(location, headers={"Cookie": header}, allow_redirects=False, timeout=10)
    assert response.status_code == 302, response.text
    loopback = response.headers["Location"]
    assert loopback.startswith("http://127.0.0.1:")
    requests.get(loopback, timeout=10)
    return loopback


def test_C01_cli_google_login_through_the_loopback_redirect(peated, provider):
    sub = "cli-" + secrets.token_hex(4)
    provider.put_user(sub, f"{sub}@example.com", name="Terminal Person")
    process, url, environment = start_login(peated)
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(url).query))
    assert urllib.parse.urlparse(query["redirect_to"]).hostname == "127.0.0.1"
    assert len(query["code_challenge"]) == 43 and query["state"]
    browser, authorize = browse_to_provider(url)
    back = requests.post(authorize, data={"sub": sub}, allow_redirects=False, timeout=10).headers["Location"]
    loopback = follow_back(browser, back)
    assert dict(urllib.parse.parse_qsl(urllib.parse.urlparse(loopback).query))["state"] == query["state"]
    out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert f"Signed in as Terminal Person <{sub}@example.com>" in out
    whoami = subprocess.run([BIN, "whoami", "--server", peated.url], capture_output=True, text=True, env=environment, timeout=30)
    assert whoami.returncode == 0 and f"{sub}@example.com" in whoami.stdout
    sent = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(authorize).query))
    assert sent["code_challenge_method"] == "S256" and sent["redirect_uri"] == peated.url + "/auth/google/callback"


def test_C02_cli_google_login_denied_says_sign_in_cancelled(peated):
    process, url, _ = start_login(peated)
    browser, authorize = browse_to_provider(url)
    back = requests.post(authorize, data={"action": "deny"}, allow_redirects=False, timeout=10).headers["Location"]
    follow_back(browser, back)
    out, err = process.communicate(timeout=30)
    assert process.returncode != 0
    assert "Sign-in cancelled" in err
    assert "Signed in" not in out


def test_C03_cli_google_login_ctrl_c_says_sign_in_cancelled(peated):
    process, _, _ = start_login(peated)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode != 0
    assert "Sign-in cancelled" in err


def test_C04_cli_google_login_refuses_an_answer_with_another_state(peated, provider):
    process, url, _ = start_login(peated)
    port = urllib.parse.urlparse(dict(urllib.parse.parse_qsl(urllib.parse.urlparse(url).query))["redirect_to"]).port
    requests.get(f"http://127.0.0.1:{port}/callback?code=ghc_forged&state=forged", timeout=10)
    out, err = process.communicate(timeout=30)
    assert process.returncode != 0
    assert "did not come from this sign-in" in err


def test_C05_cli_google_rejects_a_bad_flag_combination_in_one_line():
    run = subprocess.run([BIN, "login", "--google", "--phone", "98765 43210"], capture_output=True, text=True, timeout=30)
    assert run.returncode != 0
    assert "--google signs in without" in run.stderr
