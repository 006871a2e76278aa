"""Seed 003's backend: the official `supabase-auth` client from PyPI against the real server.

Nobody here wrote this client; it is what a Supabase app ships. The server runs example 003's
app file, which selects the Supabase API and its anon key.
"""
import json
import pathlib

import httpx
import pytest
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from conftest import EMAIL, PASSWORD, ROOT, Server

ANON_KEY = json.loads((ROOT / "examples/003-peer-mentor/gatehouse.json").read_text())["backend"]["anonKey"]


def client(server, key=ANON_KEY):
    return SyncGoTrueClient(url=f"{server.url}/auth/v1", headers={"apikey": key},
                            auto_refresh_token=False, persist_session=False)


def signed_in(server):
    c = client(server)
    c.sign_in_with_password({"email": EMAIL, "password": PASSWORD})
    return c


def api_error(call):
    with pytest.raises(AuthApiError) as raised:
        call()
    return raised.value


def test_003_authenticatesViaSupabaseAuth_signInWithPassword(server003):
    c = client(server003)
    response = c.sign_in_with_password({"email": "  User@Example.COM ", "password": PASSWORD})
    session = response.session
    assert session.token_type == "bearer"
    assert session.expires_in == 900
    assert session.access_token.count(".") == 2 and session.refresh_token.startswith("ghr_")
    assert response.user.email == EMAIL
    assert response.user.aud == "authenticated"
    assert response.user.user_metadata == {"first_name": "Demo", "last_name": "User", "full_name": "Demo User"}
    assert c.get_session().access_token == session.access_token


def test_supabase_tokenResponseIsNeverCached(server003):
    answer = httpx.post(f"{server003.url}/auth/v1/token", params={"grant_type": "password"},
                        headers={"apikey": ANON_KEY}, json={"email": EMAIL, "password": PASSWORD})
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == "no-store"
    assert abs(answer.json()["expires_at"] - answer.json()["expires_in"] - int(__import__("time").time())) <= 5


def test_supabase_getUser_isTheSameUserAsTheRESTApi(server003):
    c = signed_in(server003)
    user = c.get_user().user
    me = httpx.get(f"{server003.url}/api/me", headers={"Authorization": f"Bearer {c.get_session().access_token}"}).json()
    assert (user.id, user.email) == (me["id"], me["email"])


def test_supabase_refreshSession_rotatesTheRefreshToken(server003):
    c = signed_in(server003)
    first = c.get_session()
    refreshed = c.refresh_session().session
    assert refreshed.refresh_token != first.refresh_token
    assert refreshed.access_token != first.access_token or refreshed.expires_at >= first.expires_at
    assert c.get_user(refreshed.access_token).user.email == EMAIL


def test_supabase_wrongPassword_raisesInvalidCredentials(server003):
    error = api_error(lambda: client(server003).sign_in_with_password({"email": EMAIL, "password": "wrong-password"}))
    assert (error.code, error.status, error.message) == ("invalid_credentials", 400, "Invalid login credentials")


def test_supabase_unknownEmail_isIndistinguishableFromAWrongPassword(server003):
    bodies = []
    for email in (EMAIL, "nobody@example.com"):
        answer = httpx.post(f"{server003.url}/auth/v1/token", params={"grant_type": "password"},
                            headers={"apikey": ANON_KEY}, json={"email": email, "password": "wrong-password"})
        bodies.append((answer.status_code, answer.content))
    assert bodies[0] == bodies[1] == (400, b'{"code":400,"error_code":"invalid_credentials","msg":"Invalid login credentials"}')


def test_supabase_wrongAnonKey_isRefused(server003):
    error = api_error(lambda: client(server003, key="not-the-key").sign_in_with_password({"email": EMAIL, "password": PASSWORD}))
    assert (error.code, error.status) == ("invalid_api_key", 401)


def test_supabase_unknownRefreshToken_raisesRefreshTokenNotFound(server003):
    error = api_error(lambda: client(server003).refresh_session("ghr_" + "A" * 43))
    assert (error.code, error.status) == ("refresh_token_not_found", 400)


def test_supabase_signOutLocal_endsOnlyThisSession(server003):
    this, other = signed_in(server003), signed_in(server003)
    token = this.get_session().access_token
    this.sign_out({"scope": "local"})
    assert this.get_session() is None
    error = api_error(lambda: this.get_user(token))
    assert (error.code, error.status) == ("session_not_found", 403)
    assert other.get_user().user.email == EMAIL


def test_supabase_signOutOthers_keepsThisSession(server003):
    this, other = signed_in(server003), signed_in(server003)
    other_token = other.get_session().access_token
    this.sign_out({"scope": "others"})
    assert this.get_user().user.email == EMAIL
    assert api_error(lambda: other.get_user(other_token)).code == "session_not_found"


def test_supabase_signOutGlobal_endsEverySession(server003):
    this, other = signed_in(server003), signed_in(server003)
    tokens = [this.get_session().access_token, other.get_session().access_token]
    refresh = other.get_session().refresh_token
    this.sign_out()  # Supabase's default scope is global
    for token in tokens:
        assert api_error(lambda: client(server003).get_user(token)).code == "session_not_found"
    assert api_error(lambda: client(server003).refresh_session(refresh)).code == "session_not_found"


def test_supabase_reusedRefreshToken_raisesAlreadyUsedAndEndsTheSession():
    server = Server("003-peer-mentor", extra=("--refresh-grace", "0"))
    try:
        c = signed_in(server)
        stolen = c.get_session().refresh_token
        current = c.refresh_session().session
        assert api_error(lambda: client(server).refresh_session(stolen)).code == "refresh_token_already_used"
        # The whole session is over: the legitimate holder's tokens stop working too.
        assert api_error(lambda: c.refresh_session()).code == "refresh_token_already_used"
        assert api_error(lambda: c.get_user(current.access_token)).code == "session_not_found"
    finally:
        server.close()


def test_supabase_noPasswordOrToken_appearsInTheServerLog(server003):
    c = signed_in(server003)
    session = c.get_session()
    log = server003.log
    assert PASSWORD not in log
    assert session.refresh_token not in log and session.access_token not in log
