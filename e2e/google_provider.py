"""The OpenID provider for the Google tests: oidc-provider-mock 0.4.8 from PyPI, a real
Authlib-based provider (discovery, JWKS, code flow, nonce, a deny button), on a free loopback
port. It needs Python 3.12; e2e/run.sh makes its venv and says so if there is none."""
import base64
import hashlib
import json
import os
import pathlib
import secrets
import subprocess
import time
import urllib.parse

import pytest
import requests

from conftest import ROOT, Server, free_port

MOCK_PYTHON = os.environ.get("OIDC_MOCK_PYTHON", str(ROOT / ".build-e2e/oidc-venv/bin/python"))
WEB_CLIENT, IOS_CLIENT = "gatehouse-web.apps.example", "gatehouse-ios.apps.example"


class Provider:
    """oidc-provider-mock on its own port; `restart()` keeps the port and gets a new signing key."""

    def __init__(self, port=None, token_max_age=3600):
        assert os.path.exists(MOCK_PYTHON), (
            f"{MOCK_PYTHON} is missing: oidc-provider-mock needs Python 3.12 (e2e/run.sh creates its venv)")
        self.port = port or free_port()
        self.token_max_age = token_max_age
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.start()

    def start(self):
        self.log = open(os.path.join("/tmp", f"oidc-mock-{self.port}.log"), "w")
        self.process = subprocess.Popen(
            [MOCK_PYTHON, str(pathlib.Path(__file__).with_name("oidc_mock_server.py")), str(self.port), str(self.token_max_age)],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        assert self.process.stdout.readline().startswith("listening"), "oidc-provider-mock did not start"
        for _ in range(100):
            try:
                requests.get(self.url + "/.well-known/openid-configuration", timeout=1)
                return
            except requests.ConnectionError:
                time.sleep(0.05)
        raise AssertionError("oidc-provider-mock never answered")

    def stop(self):
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def restart(self):
        self.stop()
        self.start()

    def put_user(self, sub, email, verified=True, name="Ada Lovelace"):
        claims = {"email": email, "email_verified": verified, "name": name, "picture": "https://example.com/a.png"}
        response = requests.put(f"{self.url}/users/{sub}", json=claims, timeout=5)
        assert response.status_code == 204, response.text

    def recorded(self):
        return requests.get(self.url + "/_recorded", timeout=5).json()

    def native_code(self, sub, client_id=WEB_CLIENT, nonce=None, redirect_uri="http://127.0.0.1:9/callback", challenge=None):
        """A code as a native app gets one: the authorization request, then the person approving as `sub`."""
        query = {"response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri, "scope": "openid email profile",
                 "state": secrets.token_urlsafe(8), "nonce": nonce or secrets.token_urlsafe(16)}
        if challenge:
            query.update(code_challenge=challenge, code_challenge_method="S256")
        url = f"{self.url}/oauth2/authorize?{urllib.parse.urlencode(query)}"
        response = requests.post(url, data={"sub": sub}, allow_redirects=False, timeout=5)
        assert response.status_code == 302, response.text
        return urllib.parse.parse_qs(urllib.parse.urlparse(response.headers["Location"]).query)["code"][0]

    def id_token(self, sub, client_id=WEB_CLIENT, nonce=None):
        """An ID token issued to `client_id`, as Google's iOS SDK hands one to an app."""
        redirect_uri = "http://127.0.0.1:9/callback"
        code = self.native_code(sub, client_id=client_id, nonce=nonce, redirect_uri=redirect_uri)
        response = requests.post(f"{self.url}/oauth2/token", data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "client_id": client_id,
            "client_secret": "any"}, timeout=5)
        assert response.status_code == 200, response.text
        return response.json()["id_token"]


def sha256_hex(text):
    return hashlib.sha256(text.encode()).hexdigest()


def s256(verifier):
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def tamper(token, header=None, signature=None):
    """The token with its header replaced (JSON) or its signature altered."""
    head, body, sig = token.split(".")
    if header is not None:
        head = base64.urlsafe_b64encode(json.dumps(header).encode()).rstrip(b"=").decode()
    if signature is not None:
        sig = signature
    return ".".join((head, body, sig))


def token_header(token):
    head = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))


class GoogleServer(Server):
    """`gatehouse serve` with an app file that lists Google, pointed at `provider`."""

    def __init__(self, provider, config="002-peated", extra=(), **kwargs):
        port = free_port()
        google = ("--google-issuer", provider.url, "--google-client-id", WEB_CLIENT, "--google-client-id", IOS_CLIENT,
                  "--public-url", f"http://localhost:{port}", "--allow-redirect", "http://127.0.0.1/callback",
                  "--anon-key", "anon-test-key")
        # Peated's server is issue 13's "done" command: serve --demo --config examples/002-peated/….
        if config == "002-peated":
            google += ("--demo",)
        super().__init__(config, extra=(*google, *extra), port=port,
                         environment={"GATEHOUSE_GOOGLE_CLIENT_SECRET": "provider-secret"}, **kwargs)
        self.provider = provider


@pytest.fixture(scope="module")
def provider():
    provider = Provider()
    yield provider
    provider.stop()
