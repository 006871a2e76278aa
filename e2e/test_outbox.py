"""Issue 40: nothing lost. Mail waits in the outbox (a row written with its secret) while the
SMTP server is down, survives `kill -9`, and arrives exactly once when the server is back; past
the retry limit it is dead-lettered, and `gatehouse outbox retry --dead` sends it. Every mail
goes through aiosmtpd with STARTTLS and AUTH and is counted by its `Message-ID`."""
import collections
import json
import subprocess
import time

import httpx
import pytest

from conftest import BIN, Server, free_port
from mail_server import MailServer
from test_email import ANON, NEW_PASSWORD, call, link_and_code, sign_up
from sms_gateways import WebhookReceiver
from test_operations import login, scrape, value

# The first retry a second after a failure (then 2 s, 4 s, …), so the tests wait seconds, not minutes.
FAST_RETRIES = ("--outbox-retry-after", "1s")


def peated(mail, *extra, database=None):
    port = free_port()
    return Server("002-peated", extra=(*mail.options(), "--anon-key", ANON, "--public-url", f"http://localhost:{port}", *FAST_RETRIES, *extra),
                  environment=mail.environment, port=port, database=database)


def outbox(server, state="pending"):
    """What `gatehouse outbox --json` lists (the CLI reads the live database)."""
    listed = subprocess.run([BIN, "outbox", "--state", state, "--json", "--database", server.database],
                            capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in listed.splitlines()]


def wait_for(predicate, timeout=30, what="the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"no {what} within {timeout} s")


def by_message_id(mails):
    return collections.Counter(str(mail["message"]["Message-ID"]) for mail in mails)


@pytest.fixture
def mail():
    """An SMTP server that starts down: the test brings it up."""
    server = MailServer()
    server.stop()
    yield server
    server.stop()


def test_O01_mail_queued_while_smtp_is_down_survives_kill_9_and_arrives_exactly_once(mail):
    server = peated(mail)
    try:
        addresses = [f"kill{index}@example.com" for index in range(3)]
        for address in addresses:
            status, _, _ = sign_up(server.url, {"email": address, "password": NEW_PASSWORD, "name": "Kill Test"})
            assert status == 202
        assert call(server.url + "/api/auth/password/forgot", {"email": "user@example.com"})[0] == 202
        # Every answer came at once; the four mails wait, each tried at least once.
        wait_for(lambda: len(outbox(server)) == 4 and all(row["attempts"] >= 1 for row in outbox(server)), what="four failed tries")
        assert all(row["last_error"].startswith("smtp:") for row in outbox(server))
        server.process.kill()
        server.process.wait(timeout=10)
    finally:
        server.close()
    mail.start()
    restarted = peated(mail, database=server.database)
    try:
        mails = mail.wait(4, timeout=45)
        time.sleep(2)  # any duplicate would come now
        assert len(mail.recorder.mails) == 4
        assert set(by_message_id(mail.recorder.mails).values()) == {1}, "each message once"
        assert sorted(m["rcpt"][0] for m in mails) == sorted([*addresses, "user@example.com"])
        assert outbox(restarted) == [] and len(outbox(restarted, "sent")) == 4
        # The reset mail's code still works: the secret was stored with its mail.
        reset = next(m["message"] for m in mails if m["rcpt"] == ["user@example.com"])
        _, code = link_and_code(reset)
        status, grant = call(restarted.url + "/api/auth/password/reset", {"email": "user@example.com", "code": code, "password": NEW_PASSWORD})
        assert status == 200 and grant["access_token"]
        assert "ghm_" not in restarted.log and code not in restarted.log
    finally:
        restarted.close()


def test_O02_mail_sent_while_smtp_is_down_arrives_once_it_is_back_with_one_message_id(mail):
    server = peated(mail)
    try:
        status, _, _ = sign_up(server.url, {"email": "later@example.com", "password": NEW_PASSWORD, "name": "Later"})
        assert status == 202
        wait_for(lambda: any(row["attempts"] >= 1 for row in outbox(server)), what="failed try")
        mail.start()
        received = mail.wait(1, timeout=30)
        time.sleep(1.5)
        assert len(mail.recorder.mails) == 1 and received[0]["rcpt"] == ["later@example.com"]
        sent = outbox(server, "sent")
        assert len(sent) == 1 and sent[0]["attempts"] >= 1
        # The Message-ID is the outbox row's id on the sender's domain, the same on every try.
        assert str(received[0]["message"]["Message-ID"]) == f"<{sent[0]['id']}@peated.example>"
    finally:
        server.close()


def test_O03_past_the_retry_limit_a_mail_is_dead_lettered_counted_audited_and_retry_dead_sends_it(mail):
    metrics = free_port()
    server = peated(mail, "--outbox-attempts", "2", "--metrics-port", str(metrics))
    try:
        assert call(server.url + "/api/auth/password/forgot", {"email": "user@example.com"})[0] == 202
        wait_for(lambda: len(outbox(server, "dead")) == 1, what="dead letter")
        dead = outbox(server, "dead")[0]
        assert dead["attempts"] == 2 and dead["purpose"] == "recovery" and dead["last_error"].startswith("smtp:")
        assert "user@example.com" not in json.dumps(dead), "the CLI never shows a recipient"
        wait_for(lambda: value(scrape(metrics), "gatehouse_outbox_dead") == 1, what="dead gauge")
        samples = scrape(metrics)
        assert value(samples, "gatehouse_outbox_sends_total", channel="email", result="dead") == 1
        assert value(samples, "gatehouse_outbox_sends_total", channel="email", result="retry") == 1
        assert value(samples, "gatehouse_outbox_pending") == 0
        audit = subprocess.run([BIN, "audit", "--type", "message.", "--database", server.database], capture_output=True, text=True, check=True)
        assert "result=dead_lettered" in audit.stdout
        assert "Message dead-lettered" in server.log
        mail.start()
        retried = subprocess.run([BIN, "outbox", "retry", "--dead", "--database", server.database], capture_output=True, text=True, check=True)
        assert retried.stdout.startswith("1 message back in line")
        received = mail.wait(1, timeout=15)
        assert received[0]["rcpt"] == ["user@example.com"]
        assert str(received[0]["message"]["Message-ID"]) == f"<{dead['id']}@peated.example>"
        wait_for(lambda: outbox(server, "dead") == [] and len(outbox(server, "sent")) == 1, what="sent row")
    finally:
        server.close()


def audit_forwarder(receiver, database=None):
    return Server("000-generic", extra=("--audit-webhook", receiver.url.replace("/sms", "/audit"), *FAST_RETRIES),
                  environment={"GATEHOUSE_AUDIT_WEBHOOK_SECRET": receiver.secret}, database=database)


def test_O05_audit_batches_written_while_the_siem_is_down_survive_kill_9_and_arrive_exactly_once():
    receiver = WebhookReceiver()
    receiver.down = True
    server = audit_forwarder(receiver)
    try:
        for _ in range(3):
            assert login(server, password="wrong-password").status_code == 401
            time.sleep(0.3)  # separate batches
        assert login(server).status_code == 200
        # Each written batch is an outbox row, tried and refused at least once.
        wait_for(lambda: (rows := [row for row in outbox(server) if row["channel"] == "audit_webhook"])
                 and all(row["attempts"] >= 1 for row in rows)
                 and sum(1 for _ in rows) >= 2, what="refused audit batches")
        assert not receiver.received
        server.process.kill()
        server.process.wait(timeout=10)
    finally:
        server.close()
    written = [json.loads(line) for line in subprocess.run(
        [BIN, "audit", "--json", "--database", server.database], capture_output=True, text=True, check=True).stdout.splitlines()]
    expected = collections.Counter(entry["type"] for entry in written if not (entry.get("actor") or "").startswith("cli:"))
    assert expected["sign_in.refused"] == 3 and expected["sign_in.succeeded"] == 1
    receiver.down = False
    restarted = audit_forwarder(receiver, database=server.database)
    try:
        wait_for(lambda: not [row for row in outbox(restarted) if row["channel"] == "audit_webhook"], timeout=45, what="sent batches")
        time.sleep(1.5)  # any duplicate would come now
        assert len(receiver.ids) == len(set(receiver.ids)), "each batch once"
        sent = {row["id"] for row in outbox(restarted, "sent") if row["channel"] == "audit_webhook"}
        assert set(receiver.ids) == sent, "the webhook-id is the outbox row's id"
        forwarded = collections.Counter(entry["type"] for batch in receiver.received for entry in batch["entries"])
        # Everything the killed server wrote, once; the restarted one may have written more since.
        assert all(forwarded[kind] >= count for kind, count in expected.items()), (forwarded, expected)
        assert forwarded["sign_in.refused"] == 3 and forwarded["sign_in.succeeded"] == 1
        assert not receiver.rejected
    finally:
        restarted.close()
        receiver.close()


def test_O04_the_outbox_commands_refuse_bad_arguments_in_one_line():
    for args, message in ((["outbox", "retry"], "name a message's id, or pass --dead"),
                          (["outbox", "retry", "nope"], "is not an outbox id"),
                          (["outbox", "--state", "lost"], "lost")):
        run = subprocess.run([BIN, *args, "--database", ":memory:"], capture_output=True, text=True)
        assert run.returncode != 0 and message in run.stderr, run.stderr
