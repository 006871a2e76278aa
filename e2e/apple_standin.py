"""A local Sign in with Apple for the provider tests: Apple cannot run here, so this speaks its
protocol as appleid.apple.com does, on a loopback origin other than the server's.

- GET  /.well-known/openid-configuration, /auth/keys   discovery and an RS256 key set.
- GET  /auth/authorize   the consent page ("Continue as <sub>", "Cancel"); the answer is a
                         form POSTed from this origin to redirect_uri (`response_mode=form_post`):
                         `code` and `state`, and `user` (name and email) at the first
                         authorisation of each person only; a cancel posts
                         `error=user_cancelled_authorize`.
- POST /auth/token       checks the client secret: an ES256 JWT from the team's key (the public
                         half the test gave), `kid`, `iss` the team, `sub` the client, `aud` this
                         issuer, at most six months; then the code (single use, its client and
                         redirect_uri). Answers an ID token with Apple's string `email_verified`
                         and `is_private_email`, and a refresh token.
- POST /auth/revoke      checks the client secret and records what it got.
- notice(sub, kind)      a signed server-to-server notice (`consent-revoked`, `account-delete`,
                         `email-disabled`, `email-enabled`).
- PUT  /_users/<sub>     {"email", "private", "firstName", "lastName"}.
- GET  /_recorded        authorize queries, token forms (with the decoded secret), revocations.
"""
import base64
import html
import json
import secrets
import threading
import time
import urllib.parse

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from standin_http import StandIn, StandInHandler, hidden_inputs

TEAM_ID, KEY_ID = "TEAMID1234", "KEYID12345"
SERVICES_ID, BUNDLE_ID = "com.example.gatehouse.web", "com.example.gatehouse"


def team_key(folder):
    """A new P-256 team key, written as Apple hands it out (AuthKey_<key id>.p8); returns (path, public PEM)."""
    key = ec.generate_private_key(ec.SECP256R1())
    path = f"{folder}/AuthKey_{KEY_ID}.p8"
    with open(path, "wb") as file:
        file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return path, key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


class Apple(StandIn):
    def __init__(self, team_public_key):
        self.team_public_key = team_public_key
        self.signing = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.kid = "apple-" + secrets.token_hex(4)
        self.users, self.codes, self.authorized, self.refresh_tokens = {}, {}, set(), {}
        self.recorded = {"authorize": [], "token": [], "revoke": []}
        self._serve(self._handler())

    def put_user(self, sub, email, private=False, first=None, last=None):
        with self.lock:
            self.users[sub] = {"email": email, "private": private, "firstName": first, "lastName": last}

    def id_token(self, sub, audience, nonce=None, lifetime=600, **overrides):
        """An identity token as Apple signs one (for native apps: `audience` is the bundle id)."""
        user = self.users[sub]
        now = int(time.time())
        claims = {"iss": self.url, "aud": audience, "sub": sub, "iat": now, "exp": now + lifetime, "auth_time": now,
                  "email": user["email"], "email_verified": "true", "is_private_email": "true" if user["private"] else "false",
                  "nonce_supported": True}
        if nonce:
            claims["nonce"] = nonce
        claims.update(overrides)
        return jwt.encode(claims, self.signing, algorithm="RS256", headers={"kid": self.kid})

    def notice(self, sub, kind, audience=SERVICES_ID, key=None):
        """A server-to-server notice as Apple signs one: `events` is a JSON string."""
        now = int(time.time())
        events = {"type": kind, "sub": sub, "event_time": now * 1000}
        if kind.startswith("email-"):
            events.update(email=self.users[sub]["email"], is_private_email="true")
        claims = {"iss": self.url, "aud": audience, "iat": now, "jti": secrets.token_hex(8), "events": json.dumps(events)}
        return jwt.encode(claims, key or self.signing, algorithm="RS256", headers={"kid": self.kid})

    def _jwks(self):
        numbers = self.signing.public_key().public_numbers()

        def b64(value):
            raw = value.to_bytes((value.bit_length() + 7) // 8, "big")
            return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        return {"keys": [{"kty": "RSA", "kid": self.kid, "use": "sig", "alg": "RS256", "n": b64(numbers.n), "e": b64(numbers.e)}]}

    def _check_secret(self, secret, client_id):
        """Apple's rules for a client secret; returns its claims or raises."""
        header = jwt.get_unverified_header(secret)
        if header.get("alg") != "ES256" or header.get("kid") != KEY_ID:
            raise ValueError("header")
        claims = jwt.decode(secret, self.team_public_key, algorithms=["ES256"], audience=self.url, issuer=TEAM_ID)
        if claims["sub"] != client_id or claims["exp"] - claims["iat"] > 15777000:
            raise ValueError("claims")
        return claims

    def _handler(self):
        apple = self

        class Handler(StandInHandler):
            def do_GET(self):
                url = urllib.parse.urlparse(self.path)
                query = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
                if url.path == "/.well-known/openid-configuration":
                    return self._send(200, {
                        "issuer": apple.url, "authorization_endpoint": apple.url + "/auth/authorize",
                        "token_endpoint": apple.url + "/auth/token", "revocation_endpoint": apple.url + "/auth/revoke",
                        "jwks_uri": apple.url + "/auth/keys", "response_types_supported": ["code"],
                        "response_modes_supported": ["query", "fragment", "form_post"],
                        "id_token_signing_alg_values_supported": ["RS256"],
                        "token_endpoint_auth_methods_supported": ["client_secret_post"]})
                if url.path == "/auth/keys":
                    return self._send(200, apple._jwks())
                if url.path == "/_recorded":
                    with apple.lock:
                        return self._send(200, apple.recorded)
                if url.path == "/auth/authorize":
                    with apple.lock:
                        apple.recorded["authorize"].append(query)
                        subs = sorted(apple.users)
                    hidden = hidden_inputs(query)
                    buttons = "".join(f'<button name="sub" value="{html.escape(s)}" id="continue-{html.escape(s)}">'
                                      f"Continue as {html.escape(s)}</button>" for s in subs)
                    return self._send(200, f'<!doctype html><title>Apple ID</title><form method="post">{hidden}{buttons}'
                                           '<button name="cancel" value="1" id="cancel">Cancel</button></form>', "text/html")
                self._send(404, {"error": "not_found"})

            def do_PUT(self):
                if self.path.startswith("/_users/"):
                    body = self._json()
                    apple.put_user(self.path.removeprefix("/_users/"), body["email"], body.get("private", False),
                                   body.get("firstName"), body.get("lastName"))
                    return self._send(204, "")
                self._send(404, {"error": "not_found"})

            def _post_back(self, target, fields):
                inputs = hidden_inputs(fields)
                page = (f'<!doctype html><title>Apple ID</title><form method="post" action="{html.escape(target)}">{inputs}'
                        '<noscript><button>Continue</button></noscript></form><script>document.forms[0].submit()</script>')
                self._send(200, page, "text/html")

            def do_POST(self):
                url = urllib.parse.urlparse(self.path)
                form = self._form()
                if url.path == "/auth/authorize":
                    if form.get("cancel"):
                        return self._post_back(form["redirect_uri"], {"error": "user_cancelled_authorize", "state": form.get("state", "")})
                    sub = form["sub"]
                    code = "c" + secrets.token_hex(16)
                    fields = {"code": code, "state": form.get("state", "")}
                    with apple.lock:
                        user = apple.users[sub]
                        apple.codes[code] = {"sub": sub, "client_id": form["client_id"], "redirect_uri": form["redirect_uri"],
                                             "nonce": form.get("nonce")}
                        first = (sub, form["client_id"]) not in apple.authorized
                        apple.authorized.add((sub, form["client_id"]))
                    if first:
                        name = {k: user[k] for k in ("firstName", "lastName") if user[k]}
                        fields["user"] = json.dumps({**({"name": name} if name else {}), "email": user["email"]})
                    return self._post_back(form["redirect_uri"], fields)
                if url.path == "/auth/token":
                    record = dict(form)
                    try:
                        record["secret_claims"] = apple._check_secret(form.get("client_secret", ""), form.get("client_id"))
                    except Exception as error:  # noqa: BLE001 - any bad secret is Apple's invalid_client
                        record["secret_error"] = type(error).__name__
                        with apple.lock:
                            apple.recorded["token"].append(record)
                        return self._send(400, {"error": "invalid_client"})
                    with apple.lock:
                        apple.recorded["token"].append(record)
                        grant = apple.codes.pop(form.get("code", ""), None)
                    if (not grant or form.get("grant_type") != "authorization_code" or grant["client_id"] != form["client_id"]
                            or grant["redirect_uri"] != form.get("redirect_uri")):
                        return self._send(400, {"error": "invalid_grant"})
                    token = apple.id_token(grant["sub"], grant["client_id"], nonce=grant["nonce"])
                    refresh = "r" + secrets.token_hex(16)
                    with apple.lock:
                        apple.refresh_tokens[refresh] = grant["sub"]
                    return self._send(200, {"access_token": "a" + secrets.token_hex(16), "token_type": "Bearer", "expires_in": 3600,
                                            "refresh_token": refresh, "id_token": token})
                if url.path == "/auth/revoke":
                    record = dict(form)
                    try:
                        apple._check_secret(form.get("client_secret", ""), form.get("client_id"))
                    except Exception as error:  # noqa: BLE001 - any bad secret is Apple's invalid_client
                        record["secret_error"] = type(error).__name__
                    with apple.lock:
                        apple.recorded["revoke"].append(record)
                    return self._send(400 if "secret_error" in record else 200, {"error": "invalid_client"} if "secret_error" in record else "")
                self._send(404, {"error": "not_found"})

        return Handler


if __name__ == "__main__":
    # Run it by hand to try Sign in with Apple locally: it makes a team key, listens, and prints
    # the app file's providers.apple block to paste (see the README's "Sign in with Apple").
    import tempfile as _tempfile
    folder = _tempfile.mkdtemp(prefix="apple-standin-")
    path, public = team_key(folder)
    standin = Apple(public)
    standin.put_user("000001.demo", "demo@privaterelay.appleid.com", private=True, first="Demo", last="Person")
    print(json.dumps({"apple": {"servicesId": SERVICES_ID, "bundleIds": [BUNDLE_ID], "teamId": TEAM_ID, "keyId": KEY_ID,
                                "privateKeyFile": path, "issuer": standin.url}}, indent=2), flush=True)
    threading.Event().wait()
