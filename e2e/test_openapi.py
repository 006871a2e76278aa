"""`docs/openapi.yaml` against the real server: the document it serves, and schemathesis.

schemathesis (from PyPI) generates requests from the document, valid and invalid, and checks
each answer: no 5xx, a documented status, a documented content type, documented headers and a
body that fits the schema. The run must reach at least 1 000 cases; the count is written to
`.build-e2e/schemathesis.txt` for the test script's summary.
"""
import os
import re
import subprocess
import sys
import tempfile

import httpx

from conftest import EMAIL, PASSWORD, ROOT, Server
from google_provider import GoogleServer, Provider
from phone_pages import PhoneServer

PHONE_OPERATIONS = ["phoneCountries", "sendPhoneCode", "resendPhoneCode", "registerPhone", "verifyPhoneCode",
                    "supabaseOTP", "supabaseVerify", "addPhone", "verifyAddPhone"]
# Served when a provider is configured: fuzzed against Peated's server with oidc-provider-mock
# as Google (Apple is listed there but not configured: its routes answer 404, as documented).
GOOGLE_OPERATIONS = ["googleSignIn", "googleSignInAPI", "googleFlowToken", "providerStart", "providerCallback",
                     "providerPostedCallback", "providerContinue", "supabaseAuthorize", "supabaseLinkIdentity", "supabaseUnlinkIdentity",
                     "appleSignIn", "appleSignInAPI", "appleNotifications"]

# Sign-up, verification and reset: fuzzed on Peated's server, whose app file turns them on.
# supabaseUpdateUser sets a password, so it runs only there, where no session is handed over.
ACCOUNT_OPERATIONS = ["signUp", "verifyEmail", "resendVerification", "forgotPassword", "resetPassword", "changePassword",
                      "supabaseSignUp", "supabaseResend", "supabaseRecover", "supabaseUpdateUser",
                      "sendEmailCode", "verifyEmailCode", "supabaseMagicLink", "changeEmail", "confirmEmailChange", "cancelEmailChange"]

# Two-step verification (issue 37): every operation answers quickly from the account's own
# factors, so fewer examples reach the same code; fuzzed in a run of its own on the main server.
MFA_OPERATIONS = ["listFactors", "enrolFactor", "verifyFactor", "removeFactor", "challengeFactor", "verifyChallenge",
                  "regenerateRecoveryCodes", "supabaseEnrolFactor", "supabaseUnenrolFactor", "supabaseChallengeFactor",
                  "supabaseVerifyFactor"]

# Supabase's admin API: fuzzed with the service role key on a server of its own (it creates,
# bans and deletes users), and with a user's token (refused) in the main run.
ADMIN_OPERATIONS = ["adminListUsers", "adminCreateUser", "adminGetUser", "adminUpdateUser", "adminDeleteUser"]
SERVICE_ROLE_KEY = "openapi-service-role-key-0123456789abcdef"

DOCUMENT = ROOT / "docs" / "openapi.yaml"
CONFIG = ROOT / "e2e" / "schemathesis.toml"  # a 413 rejects a schema-violating request too
CHECKS = ",".join([
    "not_a_server_error", "status_code_conformance", "content_type_conformance",
    "response_headers_conformance", "response_schema_conformance", "negative_data_rejection",
])
SCHEMATHESIS = os.path.join(os.path.dirname(sys.executable), "schemathesis")
SEED = os.environ.get("GATEHOUSE_FUZZ_SEED", "20261122")


def access_token(server):
    answer = httpx.post(f"{server.url}/api/auth/login", json={"email": EMAIL, "password": PASSWORD})
    return answer.json()["access_token"]


def schemathesis(server, token, anon_key, selection, examples):
    """Runs the schemathesis CLI once; returns (exit code, cases generated, output)."""
    command = [SCHEMATHESIS, "--config-file", str(CONFIG), "run", str(DOCUMENT), "--url", server.url, "--checks", CHECKS,
               "--max-examples", str(examples), "--seed", SEED, "--generation-database", "none",
               "-H", f"Authorization: Bearer {token}", "-H", f"apikey: {anon_key}", *selection]
    run = subprocess.run(command, capture_output=True, text=True, cwd=tempfile.mkdtemp(prefix="schemathesis-"), timeout=1200)
    generated = re.search(r"(\d+) generated", run.stdout)
    return run.returncode, int(generated.group(1)) if generated else 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_openapi_servedDocumentIsDocsOpenapiYaml(server):
    answer = httpx.get(f"{server.url}/openapi.yaml")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/yaml")
    assert answer.content == DOCUMENT.read_bytes()


def test_openapi_schemathesis_noServerErrorAndNoSchemaViolationInAThousandCases():
    # Logout ends the session the other operations use, so it gets a run and a session of its own.
    server = Server("003-peer-mentor", extra=("--service-role-key", SERVICE_ROLE_KEY))
    try:
        anon_key = "peer-mentor-demo-anon-key"
        admin = [argument for operation in ADMIN_OPERATIONS for argument in ("--include-operation-id", operation)]
        # Account deletion too: it needs the password, which the fuzzer never guesses, and its
        # wrong tries count against the account like sign-ins.
        logouts = ["--include-operation-id", "logout", "--include-operation-id", "supabaseLogout", "--include-operation-id", "deleteAccount"]
        phone = [argument for operation in PHONE_OPERATIONS for argument in ("--include-operation-id", operation)]
        google = [argument for operation in GOOGLE_OPERATIONS + ACCOUNT_OPERATIONS for argument in ("--include-operation-id", operation)]
        others = ["--exclude-operation-id", "logout", "--exclude-operation-id", "supabaseLogout", "--exclude-operation-id", "deleteAccount",
                  *[argument for operation in PHONE_OPERATIONS + GOOGLE_OPERATIONS + ACCOUNT_OPERATIONS + MFA_OPERATIONS
                    for argument in ("--exclude-operation-id", operation)]]
        mfa = [argument for operation in MFA_OPERATIONS for argument in ("--include-operation-id", operation)]
        # Examples per operation in the fuzzing phase (the coverage phase adds its own cases):
        # twice these took 8 of one worker's minutes in the full suite, which the machine's two
        # cores bound, for about half as many cases again.
        runs = [schemathesis(server, access_token(server), anon_key, others, 50),
                schemathesis(server, access_token(server), anon_key, mfa, 30),
                schemathesis(server, access_token(server), anon_key, logouts, 75)]
        admin_server = Server("003-peer-mentor", extra=("--service-role-key", SERVICE_ROLE_KEY))
        try:
            runs.append(schemathesis(admin_server, SERVICE_ROLE_KEY, anon_key, admin, 50))
            assert "Unexpected error" not in admin_server.log
        finally:
            admin_server.close()
        # The phone routes are served by an app that lists phone: UrbanNest's, with its outbox.
        phone_server = PhoneServer(extra=("--anon-key", "urbannest-anon-key"))
        try:
            runs.append(schemathesis(phone_server, "none", "urbannest-anon-key", phone, 60))
            assert "Unexpected error" not in phone_server.log
        finally:
            phone_server.close()
        # The Google and account routes, on Peated's server with a real provider (oidc-provider-mock 0.4.8).
        provider = Provider()
        google_server = GoogleServer(provider, "002-peated")
        try:
            runs.append(schemathesis(google_server, "none", "anon-test-key", google, 50))
            assert "Unexpected error" not in google_server.log
        finally:
            google_server.close()
            provider.stop()
        for code, generated, output in runs:
            assert code == 0 and generated > 0, output
        total = sum(generated for _, generated, _ in runs)
        os.makedirs(ROOT / ".build-e2e", exist_ok=True)
        (ROOT / ".build-e2e" / "schemathesis.txt").write_text(f"{total} cases, 0 failures (seed {SEED})\n")
        assert total >= 1000, f"only {total} cases"
        assert "Unexpected error" not in server.log
    finally:
        server.close()
