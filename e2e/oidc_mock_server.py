"""Runs oidc-provider-mock 0.4.8 (a real Authlib OpenID provider) on a loopback port, under
Python 3.12, and records what clients send it: the mock does not check PKCE itself, so the
tests read the recorded authorization and token requests and check S256 themselves.

    python3.12 oidc_mock_server.py PORT TOKEN_MAX_AGE_SECONDS

GET /_recorded answers {"authorize": [query...], "token": [form...], "jwks": count}; a token
request's HTTP Basic credentials, if any, are in its form record as "basic" ("id:secret").
"""
import sys
import threading
from datetime import timedelta

import flask
import oidc_provider_mock
import werkzeug.serving

port, max_age = int(sys.argv[1]), int(sys.argv[2])
app = oidc_provider_mock.app(require_nonce=True, access_token_max_age=timedelta(seconds=max_age))
recorded = {"authorize": [], "token": [], "jwks": 0}
lock = threading.Lock()


@app.before_request
def record():
    request = flask.request
    with lock:
        if request.path == "/oauth2/authorize" and request.method == "GET":
            recorded["authorize"].append(dict(request.args))
        elif request.path == "/oauth2/token":
            form = dict(request.form)
            if request.authorization and request.authorization.type == "basic":
                form["basic"] = f"{request.authorization.username}:{request.authorization.password}"
            recorded["token"].append(form)
        elif request.path == "/jwks":
            recorded["jwks"] += 1


@app.get("/_recorded")
def show_recorded():
    with lock:
        return flask.jsonify(recorded)


app.debug = False
print(f"listening on {port}", flush=True)
werkzeug.serving.run_simple("127.0.0.1", port, app, threaded=True)
