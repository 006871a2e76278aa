"""A local GitHub for the provider tests: GitHub cannot run here, so this speaks its OAuth web
flow and user API the way github.com and GitHub Enterprise Server do.

- GET  /login/oauth/authorize   the consent page: one "Authorize <login>" button per user and
                                "Cancel"; each POSTs back and is redirected to redirect_uri with
                                `code` and `state` (or `error=access_denied`).
- POST /login/oauth/access_token  checks client_id, client_secret, redirect_uri, single use and
                                PKCE S256 when the request had a challenge; answers JSON (errors
                                too, with HTTP 200, as GitHub does).
- GET  /api/v3/user, /api/v3/user/emails   with `Authorization: Bearer <token>`.
- PUT  /_users/<login>          {"id", "name", "emails": [{"email", "primary", "verified"}]}.
- GET  /_recorded               the authorize queries and token forms it received.
"""
import base64
import hashlib
import html
import json
import secrets
import threading
import urllib.parse

from standin_http import StandIn, StandInHandler, hidden_inputs

CLIENT_ID, CLIENT_SECRET = "gatehouse-github-client", "github-secret"


class GitHub(StandIn):
    def __init__(self):
        self.users, self.codes, self.tokens = {}, {}, {}
        self.recorded = {"authorize": [], "token": [], "api": []}
        self._serve(self._handler())

    def put_user(self, login, user_id, emails, name=None):
        with self.lock:
            self.users[login] = {"id": user_id, "login": login, "name": name, "emails": emails,
                                 "avatar_url": f"https://avatars.example/{user_id}"}

    def _handler(self):
        github = self

        class Handler(StandInHandler):
            def do_GET(self):
                url = urllib.parse.urlparse(self.path)
                query = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
                if url.path == "/login/oauth/authorize":
                    with github.lock:
                        github.recorded["authorize"].append(query)
                        logins = sorted(github.users)
                    hidden = hidden_inputs(query)
                    buttons = "".join(f'<button name="login" value="{html.escape(login)}" id="authorize-{html.escape(login)}">'
                                      f"Authorize {html.escape(login)}</button>" for login in logins)
                    page = (f'<!doctype html><title>Authorize</title><form method="post">{hidden}{buttons}'
                            '<button name="deny" value="1" id="cancel">Cancel</button></form>')
                    return self._send(200, page, "text/html")
                if url.path == "/_recorded":
                    with github.lock:
                        return self._send(200, github.recorded)
                if url.path in ("/api/v3/user", "/api/v3/user/emails"):
                    token = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
                    with github.lock:
                        github.recorded["api"].append(url.path)
                        login = github.tokens.get(token)
                        user = github.users.get(login)
                    if not user:
                        return self._send(401, {"message": "Bad credentials"})
                    if url.path.endswith("/emails"):
                        return self._send(200, user["emails"])
                    return self._send(200, {k: user[k] for k in ("id", "login", "name", "avatar_url")})
                self._send(404, {"message": "Not Found"})

            def do_PUT(self):
                if self.path.startswith("/_users/"):
                    body = self._json()
                    github.put_user(self.path.removeprefix("/_users/"), body["id"], body["emails"], body.get("name"))
                    return self._send(204, "")
                self._send(404, {"message": "Not Found"})

            def do_POST(self):
                url = urllib.parse.urlparse(self.path)
                form = self._form()
                if url.path == "/login/oauth/authorize":
                    target = form["redirect_uri"]
                    separator = "&" if "?" in target else "?"
                    if form.get("deny"):
                        answer = {"error": "access_denied", "state": form.get("state", "")}
                    else:
                        code = secrets.token_urlsafe(16)
                        with github.lock:
                            github.codes[code] = {"login": form["login"], "redirect_uri": target,
                                                  "client_id": form.get("client_id"), "challenge": form.get("code_challenge")}
                        answer = {"code": code, "state": form.get("state", "")}
                    return self._send(302, "", "text/plain", [("Location", target + separator + urllib.parse.urlencode(answer))])
                if url.path == "/login/oauth/access_token":
                    with github.lock:
                        github.recorded["token"].append(form)
                        grant = github.codes.pop(form.get("code", ""), None)
                    if form.get("client_id") != CLIENT_ID or form.get("client_secret") != CLIENT_SECRET:
                        return self._send(200, {"error": "incorrect_client_credentials"})
                    if not grant or grant["redirect_uri"] != form.get("redirect_uri") or grant["client_id"] != CLIENT_ID:
                        return self._send(200, {"error": "bad_verification_code"})
                    if grant["challenge"]:
                        digest = hashlib.sha256(form.get("code_verifier", "").encode()).digest()
                        if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != grant["challenge"]:
                            return self._send(200, {"error": "bad_verification_code"})
                    token = "gho_" + secrets.token_urlsafe(20)
                    with github.lock:
                        github.tokens[token] = grant["login"]
                    return self._send(200, {"access_token": token, "token_type": "bearer", "scope": "read:user,user:email"})
                self._send(404, {"message": "Not Found"})

        return Handler


if __name__ == "__main__":
    # Run it by hand to try GitHub sign-in locally: it listens and prints the app file's
    # providers.github block; the secret is GATEHOUSE_PROVIDER_GITHUB_CLIENT_SECRET=github-secret.
    standin = GitHub()
    standin.put_user("octo-demo", 1, [{"email": "octo@example.com", "primary": True, "verified": True}], "Octo Demo")
    print(json.dumps({"github": {"clientId": CLIENT_ID, "baseURL": standin.url}}, indent=2), flush=True)
    threading.Event().wait()
