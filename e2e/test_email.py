"""Issue 22 end to end: Peated's example with mail over a real SMTP server (aiosmtpd with
STARTTLS and AUTH), the official supabase-auth client, and a local breached-password range
server. Every mail is parsed with Python's `email` package."""
import hashlib
import json
import re
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from conftest import Server, free_port
from mail_server import SECRET, MailServer

NEW_PASSWORD = "a long and quiet river"
ANON = "anon-test-key"


def call(url, body, token=None, headers=None, answer_headers=None):
    headers = {"Content-Type": "application/json", **(headers or {})}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            if answer_headers is not None:
                answer_headers.update(response.headers)
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def sign_up(url, body):
    """A REST sign-up: its status, body, and the binding that lets its mail's link sign in here."""
    answer = {}
    status, response = call(url + "/api/auth/signup", body, answer_headers=answer)
    return status, response, {"Gatehouse-Sign-Up": answer.get("Gatehouse-Sign-Up", "")}


@pytest.fixture(scope="module")
def mail():
    server = MailServer()
    yield server
    server.stop()


def smtp_peated(mail):
    """Peated's example mailing through `mail`, with the Supabase routes on, its links on localhost."""
    port = free_port()
    return Server("002-peated", extra=(*mail.options(), "--anon-key", ANON, "--public-url", f"http://localhost:{port}"),
                  environment=mail.environment, port=port)


@pytest.fixture(scope="module")
def peated(mail):
    server = smtp_peated(mail)
    yield server
    server.close()


def parts(message):
    """The text and HTML parts of a multipart/alternative mail."""
    assert message.get_content_type() == "multipart/alternative"
    text = message.get_body(preferencelist=("plain",)).get_content()
    html = message.get_body(preferencelist=("html",)).get_content()
    return text, html


def link_and_code(message, pages="verify-email|reset-password"):
    """The mail's link token (to one of `pages`) and its code, each in both parts."""
    text, html = parts(message)
    link = re.search(rf"https?://\S+(?:{pages})\?token=(ghm_[A-Za-z0-9_-]+)", text)
    code = re.search(r"\b(\d{6})\b", text)
    assert link and code, text
    assert link.group(1) in html and code.group(1) in html
    return link.group(1), code.group(1)


def test_M01_signUpMailArrivesOverSTARTTLSWithAuthAndBothParts(peated, mail):
    before = len(mail.recorder.mails)
    status, body, here = sign_up(peated.url, {"email": "Ada@Example.com", "password": NEW_PASSWORD, "name": "Ada Lovelace"})
    assert status == 202 and body == {"status": "accepted", "email": "ada@example.com"}
    received = mail.wait(before + 1)[-1]
    assert received["tls"] and received["auth"], "submitted over STARTTLS, after AUTH"
    message = received["message"]
    assert received["rcpt"] == ["ada@example.com"] and received["from"] == "hello@peated.example"
    assert message["Subject"] == "Verify your email for Peated"
    assert str(message["From"]) == "Peated <hello@peated.example>" and str(message["To"]) == "ada@example.com"
    assert message["Date"].datetime is not None and re.fullmatch(r"<[^@\s]+@peated\.example>", str(message["Message-ID"]))
    token, code = link_and_code(message)
    text, _ = parts(message)
    assert f"{peated.url}/verify-email?token={token}" in text
    # Unverified: the right password hears Peated's copy; a wrong one does not.
    status, body = call(peated.url + "/api/auth/login", {"email": "ada@example.com", "password": NEW_PASSWORD})
    assert status == 403 and body["error"] == "email_not_verified"
    assert call(peated.url + "/api/auth/login", {"email": "ada@example.com", "password": "wrong password here"})[0] == 401
    status, body = call(peated.url + "/api/auth/email/verify", {"token": token}, headers=here)
    assert status == 200 and body["user"]["email"] == "ada@example.com"
    assert call(peated.url + "/api/auth/login", {"email": "ada@example.com", "password": NEW_PASSWORD})[0] == 200
    assert code not in peated.log and token not in peated.log and NEW_PASSWORD not in peated.log


def test_M02_forgotThenResetByCodeEndsOldSessionsAndSignsIn(peated, mail):
    status, login = call(peated.url + "/api/auth/login", {"email": "user@example.com", "password": "password123"})
    assert status == 200
    before = len(mail.recorder.mails)
    assert call(peated.url + "/api/auth/password/forgot", {"email": "user@example.com"}) == (202, {"status": "accepted", "email": "user@example.com"})
    assert call(peated.url + "/api/auth/password/forgot", {"email": "nobody@example.com"}) == (202, {"status": "accepted", "email": "nobody@example.com"})
    message = mail.wait(before + 1)[-1]["message"]
    assert message["Subject"] == "Reset your Peated password" and str(message["To"]) == "user@example.com"
    token, code = link_and_code(message)
    status, grant = call(peated.url + "/api/auth/password/reset", {"email": "user@example.com", "code": code, "password": NEW_PASSWORD})
    assert status == 200 and grant["access_token"]
    assert call(peated.url + "/api/auth/refresh", {"refresh_token": login["refresh_token"]})[0] == 401, "old sessions end"
    assert call(peated.url + "/api/auth/login", {"email": "user@example.com", "password": NEW_PASSWORD})[0] == 200
    assert call(peated.url + "/api/auth/password/reset", {"token": token, "password": "yet another passphrase"})[0] == 410
    # Nothing was mailed to the unknown address.
    assert all(m["rcpt"] != ["nobody@example.com"] for m in mail.recorder.mails)
    assert code not in peated.log and token not in peated.log


def test_M03_theOfficialSupabaseClientSignsUpVerifiesRecoversAndUpdates(peated, mail):
    client = SyncGoTrueClient(url=peated.url + "/auth/v1", headers={"apikey": ANON}, auto_refresh_token=False, persist_session=False)
    before = len(mail.recorder.mails)
    response = client.sign_up({"email": "grace@example.com", "password": NEW_PASSWORD})
    assert response.user.email == "grace@example.com" and response.session is None
    _, code = link_and_code(mail.wait(before + 1)[-1]["message"])
    verified = client.verify_otp({"email": "grace@example.com", "token": code, "type": "signup"})
    assert verified.session.access_token and verified.user.email_confirmed_at
    client.resend({"type": "signup", "email": "nobody.grace@example.com"})  # no account: answered, nothing sent
    with pytest.raises(AuthApiError) as limited:  # one mail per recipient and purpose a minute, account or not
        client.resend({"type": "signup", "email": "grace@example.com"})
    assert limited.value.status == 429 and limited.value.code == "over_request_rate_limit"
    client.reset_password_for_email("grace@example.com")
    recovery = mail.wait(before + 2)[-1]["message"]
    assert recovery["Subject"] == "Reset your Peated password"
    _, code = link_and_code(recovery)
    session = client.verify_otp({"email": "grace@example.com", "token": code, "type": "recovery"}).session
    assert session.access_token
    updated = client.update_user({"password": "the river keeps on going"})
    assert updated.user.email == "grace@example.com"
    signed_in = client.sign_in_with_password({"email": "grace@example.com", "password": "the river keeps on going"})
    assert signed_in.session.access_token
    # The resends sent nothing; the new password brought its owner a notice (issue 39).
    subjects = [m["message"]["Subject"] for m in mail.wait(before + 3)[before:]]
    assert subjects == ["Verify your email for Peated", "Reset your Peated password", "Your Peated password was changed"], subjects


def test_S5_theOfficialClientChangesAPasswordOnlyWithAMailedNonceOrTheCurrentOne(peated, mail):
    """Issue 35, point 5: `update_user({"password"})` from a plain password session is refused with
    GoTrue's `reauthentication_needed`; `reauthenticate()` mails a code that `update_user` takes as
    its `nonce`, once; `current_password` is proof too. The official client, its defaults."""
    peated.create_user("s5@example.com", "Sam Five", NEW_PASSWORD)
    client = SyncGoTrueClient(url=peated.url + "/auth/v1", headers={"apikey": ANON}, auto_refresh_token=False, persist_session=False)
    client.sign_in_with_password({"email": "s5@example.com", "password": NEW_PASSWORD})
    with pytest.raises(AuthApiError) as refused:
        client.update_user({"password": "a thief's own passphrase"})
    assert refused.value.status == 400 and refused.value.code == "reauthentication_needed"
    before = len(mail.recorder.mails)
    client.reauthenticate()
    message = mail.wait(before + 1)[-1]["message"]
    assert str(message["To"]) == "s5@example.com" and message["Subject"] == "Confirm it's you on Peated"
    text, _ = parts(message)
    nonce = re.search(r"\b(\d{6})\b", text).group(1)
    assert "http" not in text.split("enter this code")[0][-200:], "a code, no link to follow"
    client.update_user({"password": "the river keeps on going", "nonce": nonce})
    with pytest.raises(AuthApiError) as spent:
        client.update_user({"password": "a third passphrase here", "nonce": nonce})
    assert spent.value.status == 403
    client.update_user({"password": "a third passphrase here", "current_password": "the river keeps on going"})
    assert client.sign_in_with_password({"email": "s5@example.com", "password": "a third passphrase here"}).session.access_token
    assert nonce not in peated.log


class RangeServer:
    """A k-anonymity range API served from a test file of breached passwords; `asked` counts
    the requests."""

    def __init__(self, passwords):
        self.asked = []
        asked = self.asked
        hashes = [hashlib.sha1(p.encode()).hexdigest().upper() for p in passwords]
        table = {}
        for digest in hashes:
            table.setdefault(digest[:5], []).append(f"{digest[5:]}:42")

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                prefix = self.path.rsplit("/", 1)[-1].upper()
                asked.append(prefix)
                lines = table.get(prefix, []) + ["0" * 35 + ":0"]  # a padding line
                body = "\r\n".join(lines).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.port = free_port()
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def test_M04_aBreachedPasswordIsRefusedAndAnUnreachableRangeAPIFailsOpen():
    breached = "tr0ub4dor&3 horse"
    ranges = RangeServer([breached])
    server = Server("002-peated", extra=("--breached-password-check", f"http://127.0.0.1:{ranges.port}/range/"))
    try:
        status, body = call(server.url + "/api/auth/signup", {"email": "b@example.com", "password": breached, "name": "B"})
        assert status == 400 and body == {"error": "weak_password", "message": "This password has appeared in a data breach. Please choose another."}
        assert call(server.url + "/api/auth/signup", {"email": "b@example.com", "password": "not on the list at all", "name": "B"})[0] == 202
        ranges.stop()
        # A password whose prefix was never asked for (an answer is kept for an hour).
        assert call(server.url + "/api/auth/signup", {"email": "c@example.com", "password": "an unasked passphrase", "name": "C"})[0] == 202
        assert "Breached-password check unavailable" in server.log
        assert breached not in server.log
    finally:
        server.close()


def test_S17_theRangeAPIIsAskedAfterTheSignUpLimitAndOncePerPrefixAnHour():
    breached = "tr0ub4dor&3 horse"
    ranges = RangeServer([breached])
    server = Server("002-peated", limits=("--signup-limit", "2", "--mail-limit", "100000"),
                    extra=("--breached-password-check", f"http://127.0.0.1:{ranges.port}/range/"))
    try:
        assert call(server.url + "/api/auth/signup", {"email": "e@example.com", "password": breached, "name": "E"})[0] == 400
        assert call(server.url + "/api/auth/signup", {"email": "f@example.com", "password": breached, "name": "F"})[0] == 400
        assert len(ranges.asked) == 1, "the second look-up of one prefix is answered from the cache"
        assert call(server.url + "/api/auth/signup", {"email": "g@example.com", "password": "yet another passphrase", "name": "G"})[0] == 429
        assert len(ranges.asked) == 1, "a sign-up over the address limit asks the range API nothing"
    finally:
        server.close()
        ranges.stop()


def test_M05_theDemoUsesTheNamedOutboxWhichIsOwnerOnlyAndHoldsTheCode():
    server = Server("002-peated", extra=("--demo",))
    try:
        assert call(server.url + "/api/auth/signup", {"email": "d@example.com", "password": NEW_PASSWORD, "name": "D"})[0] == 202
        import os
        import time
        deadline = time.time() + 10
        while not os.path.exists(server.mail_outbox) and time.time() < deadline:
            time.sleep(0.05)
        assert oct(os.stat(server.mail_outbox).st_mode & 0o777) == "0o600"
        line = json.loads(open(server.mail_outbox).read().splitlines()[0])
        assert line["to"] == "d@example.com" and line["action"] == "signup" and re.fullmatch(r"\d{6}", line["code"])
    finally:
        server.close()


def test_M06_theEmailWebhookDeliversSupabasesSendEmailBodySignedAndRetried():
    from sms_gateways import WebhookReceiver
    receiver = WebhookReceiver(failures=1)
    server = Server("002-peated", extra=("--email-webhook", receiver.url), environment={"GATEHOUSE_EMAIL_WEBHOOK_SECRET": receiver.secret})
    try:
        status, _, here = sign_up(server.url, {"email": "w@example.com", "password": NEW_PASSWORD, "name": "W"})
        assert status == 202
        import time
        deadline = time.time() + 10
        while not receiver.received and time.time() < deadline:
            time.sleep(0.05)
        assert receiver.received and not receiver.rejected, "signed, and retried after one 500"
        payload = receiver.received[0]
        assert payload["user"] == {"email": "w@example.com"}
        data = payload["email_data"]
        assert data["email_action_type"] == "signup" and re.fullmatch(r"\d{6}", data["token"])
        assert data["token_hash"].startswith("ghm_") and data["redirect_to"].endswith("/verify-email?token=" + data["token_hash"])
        assert data["subject"] == "Verify your email for Peated" and data["token"] in data["text"] and data["token"] in data["html"]
        # The hook's token_hash verifies, as Supabase's verify_otp(token_hash=…) would send it.
        status, body = call(server.url + "/api/auth/email/verify", {"token": data["token_hash"]}, headers=here)
        assert status == 200 and body["user"]["email"] == "w@example.com"
    finally:
        server.close()
        receiver.close()


def test_M07_aRefusedSMTPLoginIsLoggedWithoutThePasswordAndNeverAnswered(mail):
    wrong = "not-the-smtp-password"
    server = Server("002-peated", extra=mail.options(), environment={"GATEHOUSE_SMTP_PASSWORD": wrong})
    try:
        before = len(mail.recorder.mails)
        assert call(server.url + "/api/auth/signup", {"email": "x@example.com", "password": NEW_PASSWORD, "name": "X"}) == (
            202, {"status": "accepted", "email": "x@example.com"})
        import time
        deadline = time.time() + 10
        while "Message dead-lettered" not in server.log and time.time() < deadline:
            time.sleep(0.05)
        # A refused login is permanent: the outbox dead-letters it at once, naming the reason.
        assert "smtp: AUTH answered 535" in server.log and "to=x…@example.com" in server.log
        assert wrong not in server.log and len(mail.recorder.mails) == before
        assert server.log.count("SMTP attempt failed") == 1, "a refused login is permanent: not tried again"
    finally:
        server.close()


def test_M08_aServerThatOffersOnlyAuthLoginGetsAuthLogin():
    login_only = MailServer(exclude=("PLAIN",))
    server = Server("002-peated", extra=login_only.options(), environment=login_only.environment)
    try:
        assert call(server.url + "/api/auth/signup", {"email": "l@example.com", "password": NEW_PASSWORD, "name": "L"})[0] == 202
        received = login_only.wait(1)[-1]
        assert received["tls"] and received["auth"] and received["rcpt"] == ["l@example.com"]
        assert SECRET not in server.log
    finally:
        server.close()
        login_only.stop()
