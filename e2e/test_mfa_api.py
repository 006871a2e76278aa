"""Issue 37's second factor through the APIs, with pyotp (PyPI) as the authenticator app.

Seed 003's server (its app file has the `mfa` block) is called by the official `supabase-auth`
client with its default arguments, and over REST. Each test signs up an account of its own.
"""
import time
import uuid

import httpx
import pyotp
import pytest
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from conftest import Server
from test_supabase_client import ANON_KEY

PASSWORD = "correct horse battery"
SERVICE_ROLE_KEY = "mfa-service-role-key-0123456789abcdef0123"
SEEN_SECRETS = []


@pytest.fixture(scope="module")
def mfa_server():
    server = Server("003-peer-mentor", extra=("--service-role-key", SERVICE_ROLE_KEY))
    yield server
    server.close()
    log = server.log
    assert SEEN_SECRETS and not [secret for secret in SEEN_SECRETS if secret in log], "a factor secret or code reached the log"


def account(server):
    email = f"mfa-{uuid.uuid4().hex[:10]}@example.com"
    server.create_user(email, "Mia Factor", PASSWORD)
    return email


def supabase(server, email):
    c = SyncGoTrueClient(url=f"{server.url}/auth/v1", headers={"apikey": ANON_KEY})
    c.sign_in_with_password({"email": email, "password": PASSWORD})
    return c


def claims(c):
    import base64, json
    payload = c.get_session().access_token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def enrolled(c):
    factor = c.mfa.enroll({"factor_type": "totp", "friendly_name": "Phone"})
    SEEN_SECRETS.append(factor.totp.secret)
    totp = pyotp.TOTP(factor.totp.secret)
    return factor, totp


def test_mfa_supabaseClient_enrolVerifyAAL2_signInAgainAtAAL1_challengeVerify_unenrolNeedsAAL2(mfa_server):
    email = account(mfa_server)
    c = supabase(mfa_server, email)
    level = c.mfa.get_authenticator_assurance_level()
    assert (level.current_level, level.next_level) == ("aal1", "aal1")
    factor, totp = enrolled(c)
    assert factor.type == "totp" and factor.friendly_name == "Phone"
    assert factor.totp.qr_code.startswith("data:image/svg+xml;utf-8,<svg") and "otpauth://totp/" in factor.totp.uri
    code = totp.now()
    SEEN_SECRETS.append(code)
    c.mfa.challenge_and_verify({"factor_id": factor.id, "code": code})
    level = c.mfa.get_authenticator_assurance_level()
    assert (level.current_level, level.next_level) == ("aal2", "aal2")
    assert [entry.method for entry in level.current_authentication_methods] == ["password", "totp"]
    assert claims(c)["aal"] == "aal2"
    assert [f.id for f in c.mfa.list_factors().totp] == [factor.id]

    again = supabase(mfa_server, email)
    level = again.mfa.get_authenticator_assurance_level()
    assert (level.current_level, level.next_level) == ("aal1", "aal2")
    challenge = again.mfa.challenge({"factor_id": factor.id})
    replay = pytest.raises(AuthApiError)
    with replay:
        again.mfa.verify({"factor_id": factor.id, "challenge_id": challenge.id, "code": code})
    with pytest.raises(AuthApiError) as refused:
        again.mfa.unenroll({"factor_id": factor.id})
    assert refused.value.code == "insufficient_aal" and refused.value.status == 403
    later = totp.at(time.time() + 30)
    SEEN_SECRETS.append(later)
    again.mfa.verify({"factor_id": factor.id, "challenge_id": challenge.id, "code": later})
    assert again.mfa.get_authenticator_assurance_level().current_level == "aal2"
    assert again.mfa.unenroll({"factor_id": factor.id}).id == factor.id
    assert again.mfa.list_factors().all == []


def test_mfa_supabaseAdmin_listsAndDeletesFactorsWithTheServiceRoleKey(mfa_server):
    email = account(mfa_server)
    c = supabase(mfa_server, email)
    factor, _ = enrolled(c)
    user_id = c.get_user().user.id
    admin = SyncGoTrueClient(url=f"{mfa_server.url}/auth/v1",
                             headers={"apikey": ANON_KEY, "Authorization": f"Bearer {SERVICE_ROLE_KEY}"}).admin
    listed = admin.mfa.list_factors({"user_id": user_id})
    assert [(f.id, f.status, f.factor_type) for f in listed] == [(factor.id, "unverified", "totp")]
    assert admin.mfa.delete_factor({"user_id": user_id, "id": factor.id}).id == factor.id
    assert admin.mfa.list_factors({"user_id": user_id}) == []
    for _ in range(50):  # the audit log is written off the request path
        audit = mfa_server.cli("audit", "--user", email, "--type", "mfa.").stdout
        if "mfa.factor_removed" in audit:
            break
        time.sleep(0.1)
    assert "mfa.factor_removed" in audit and "service_role" in audit and "mfa.factor_enrolled" in audit


def rest_login(server, email):
    answer = httpx.post(f"{server.url}/api/auth/login", json={"email": email, "password": PASSWORD})
    assert answer.status_code == 200
    return answer.json()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def test_mfa_rest_enrolHintChallengeWrongCodesRecoveryCodesAndStepUp(mfa_server):
    url, email = mfa_server.url, account(mfa_server)
    first = rest_login(mfa_server, email)
    assert "mfa" not in first
    enrolment = httpx.post(f"{url}/api/auth/mfa/factors", json={"friendly_name": "Phone"}, headers=bearer(first["access_token"]))
    assert enrolment.status_code == 201 and enrolment.json()["factor"]["status"] == "unverified"
    secret = enrolment.json()["secret"]
    SEEN_SECRETS.append(secret)
    totp = pyotp.TOTP(secret)
    factor_id = enrolment.json()["factor"]["id"]
    verified = httpx.post(f"{url}/api/auth/mfa/factors/{factor_id}/verify", json={"code": totp.now()}, headers=bearer(first["access_token"]))
    assert verified.status_code == 200
    codes = verified.json()["recovery_codes"]
    SEEN_SECRETS.extend(codes)
    assert len(codes) == 10 and len(set(codes)) == 10
    assert httpx.get(f"{url}/api/me", headers=bearer(first["access_token"])).status_code == 401, "the aal1 session was replaced"

    second = rest_login(mfa_server, email)
    assert second["mfa"] == {"required": True, "factors": [{"id": factor_id, "type": "totp", "friendly_name": "Phone", "status": "verified"}]}
    token = second["access_token"]
    change = httpx.post(f"{url}/api/auth/password", json={"current_password": PASSWORD, "password": "another good passphrase"},
                        headers=bearer(token))
    assert change.status_code == 403 and change.json()["error"] == "insufficient_aal"
    challenge = httpx.post(f"{url}/api/auth/mfa/challenge", json={"factor_id": factor_id}, headers=bearer(token)).json()
    lefts = []
    for _ in range(5):
        wrong = httpx.post(f"{url}/api/auth/mfa/verify", json={"challenge_id": challenge["challenge_id"], "code": "000000"}, headers=bearer(token))
        lefts.append((wrong.status_code, wrong.json()["error"], wrong.json().get("attempts_left")))
        time.sleep(float(wrong.headers.get("retry-after", "0")))
    assert [left[2] for left in lefts[:4]] == [4, 3, 2, 1] and lefts[4][1] == "code_attempts_exceeded"

    recovery = httpx.post(f"{url}/api/auth/mfa/challenge", json={}, headers=bearer(token)).json()
    for _ in range(3):  # the back-off five wrong answers started: wait as told
        stepped = httpx.post(f"{url}/api/auth/mfa/verify", json={"challenge_id": recovery["challenge_id"], "recovery_code": codes[0]},
                             headers=bearer(token))
        if stepped.status_code != 429:
            break
        time.sleep(float(stepped.headers["retry-after"]))
    assert stepped.status_code == 200, stepped.text
    listed = httpx.get(f"{url}/api/auth/mfa/factors", headers=bearer(stepped.json()["access_token"])).json()
    assert listed["recovery_codes_left"] == 9
    change = httpx.post(f"{url}/api/auth/password", json={"current_password": PASSWORD, "password": "another good passphrase"},
                        headers=bearer(stepped.json()["access_token"]))
    assert change.status_code == 204, change.text


def test_mfa_graphql_gqlClient_enrolVerify_stepUpRefusedAtAAL1_thenAllowedAfterVerifySecondFactor(mfa_server):
    from gql import Client, gql
    from gql.transport.exceptions import TransportQueryError
    from gql.transport.requests import RequestsHTTPTransport

    def client(token=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return Client(transport=RequestsHTTPTransport(url=f"{mfa_server.url}/graphql", headers=headers, timeout=30),
                      fetch_schema_from_transport=True)

    email = account(mfa_server)
    login = gql("mutation($e: String!, $p: String!) { login(data: {email: $e, password: $p}) { token secondFactors { id } } }")
    first = client().execute(login, variable_values={"e": email, "p": PASSWORD})["login"]
    assert first["secondFactors"] == []
    enrolment = client(first["token"]).execute(gql("mutation { enrolFactor(friendlyName: \"Phone\") { factor { id status } secret } }"))["enrolFactor"]
    SEEN_SECRETS.append(enrolment["secret"])
    totp = pyotp.TOTP(enrolment["secret"])
    verified = client(first["token"]).execute(
        gql("mutation($f: String!, $c: String!) { verifyFactor(factorId: $f, code: $c) { token recoveryCodes } }"),
        variable_values={"f": enrolment["factor"]["id"], "c": totp.now()})["verifyFactor"]
    SEEN_SECRETS.extend(verified["recoveryCodes"])
    assert len(verified["recoveryCodes"]) == 10

    again = client().execute(login, variable_values={"e": email, "p": PASSWORD})["login"]
    assert again["secondFactors"] == [{"id": enrolment["factor"]["id"]}]
    regenerate = gql("mutation { regenerateRecoveryCodes }")
    with pytest.raises(TransportQueryError) as refused:
        client(again["token"]).execute(regenerate)
    assert refused.value.errors[0]["extensions"]["code"] == "MFA_REQUIRED"
    challenge = client(again["token"]).execute(
        gql("mutation($f: String) { challengeFactor(factorId: $f) { challengeId } }"), variable_values={"f": enrolment["factor"]["id"]}
    )["challengeFactor"]
    stepped = client(again["token"]).execute(
        gql("mutation($c: String!, $code: String) { verifySecondFactor(challengeId: $c, code: $code) { token secondFactors { id } } }"),
        variable_values={"c": challenge["challengeId"], "code": totp.at(time.time() + 30)})["verifySecondFactor"]
    assert stepped["secondFactors"] == []
    fresh = client(stepped["token"]).execute(regenerate)["regenerateRecoveryCodes"]
    SEEN_SECRETS.extend(fresh)
    assert len(fresh) == 10 and not set(fresh) & set(verified["recoveryCodes"])


def test_mfa_cliOperators_listAndResetAnAccountsFactors_audited(mfa_server):
    email = account(mfa_server)
    first = rest_login(mfa_server, email)
    enrolment = httpx.post(f"{mfa_server.url}/api/auth/mfa/factors", json={"friendly_name": "Desk"}, headers=bearer(first["access_token"])).json()
    SEEN_SECRETS.append(enrolment["secret"])
    verified = httpx.post(f"{mfa_server.url}/api/auth/mfa/factors/{enrolment['factor']['id']}/verify",
                          json={"code": pyotp.TOTP(enrolment["secret"]).now()}, headers=bearer(first["access_token"]))
    SEEN_SECRETS.extend(verified.json()["recovery_codes"])
    listed = mfa_server.cli("users", "mfa", "list", "--email", email).stdout
    assert listed.startswith(enrolment["factor"]["id"]) and "\ttotp\tverified\tDesk\t" in listed.replace("  ", "\t")
    reset = mfa_server.cli("users", "mfa", "reset", "--email", email).stdout
    assert reset == f"Removed 1 second factor of {email}\n"
    assert mfa_server.cli("users", "mfa", "list", "--email", email).stdout == "No second factors\n"
    assert "mfa" not in rest_login(mfa_server, email), "the next sign-in needs only the password"
    audit = mfa_server.cli("audit", "--user", email, "--type", "mfa.factor_removed").stdout
    assert "cli:" in audit
