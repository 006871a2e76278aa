"""Issue 24 against the real binary: Prometheus metrics scraped and parsed by
`prometheus_client`'s parser, Supabase's admin API through the official `supabase-auth` admin
client, and the audit log read back with `gatehouse audit --json` and forwarded to a Standard
Webhooks receiver, complete after a clean stop and free of secrets."""
import json
import signal
import subprocess
import time

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from supabase_auth import SyncGoTrueAdminAPI
from supabase_auth.errors import AuthApiError

from conftest import BIN, EMAIL, PASSWORD, Server, free_port
from sms_gateways import WebhookReceiver

SERVICE_ROLE_KEY = "e2e-service-role-key-0123456789abcdef0123"


def login(server, email=EMAIL, password=PASSWORD, agent="e2e-client/1.0"):
    return httpx.post(f"{server.url}/api/auth/login", json={"email": email, "password": password}, headers={"User-Agent": agent})


def scrape(port):
    text = httpx.get(f"http://127.0.0.1:{port}/metrics").text
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))), 0)


@pytest.fixture(scope="module")
def metered():
    port = free_port()
    server = Server("000-generic", extra=("--metrics-port", str(port)))
    server.metrics_port = port
    yield server
    server.close()


def test_I24_metrics_count_sign_ins_refreshes_and_requests_in_prometheus_format(metered):
    before = scrape(metered.metrics_port)
    assert login(metered, password="wrong-password").status_code == 401
    grant = login(metered).json()
    assert httpx.post(f"{metered.url}/api/auth/refresh", json={"refresh_token": grant["refresh_token"]}).status_code == 200
    assert httpx.post(f"{metered.url}/api/auth/refresh", json={"refresh_token": "ghr_nonsense"}).status_code == 401
    after = scrape(metered.metrics_port)

    def grew(name, by=1, **labels):
        return value(after, name, **labels) - value(before, name, **labels) == by

    assert grew("gatehouse_sign_in_attempts_total", method="password", outcome="success")
    assert grew("gatehouse_sign_in_attempts_total", method="password", outcome="invalid_credentials")
    assert grew("gatehouse_refreshes_total", outcome="success")
    assert grew("gatehouse_refreshes_total", outcome="invalid_refresh_token")
    route = {"http_route": "/api/auth/login", "http_request_method": "POST"}
    assert grew("http_server_request_duration_count", http_response_status_code="401", **route)
    assert grew("http_server_request_duration_count", http_response_status_code="200", **route)
    assert value(after, "http_server_request_duration_bucket", http_response_status_code="200", le="+Inf", **route) >= 1
    assert value(after, "gatehouse_hashing_wait_seconds_count") >= 2
    assert value(after, "process_resident_memory_bytes") > 1_000_000
    assert value(after, "process_cpu_seconds_total") > 0
    assert value(after, "process_open_fds") > 0


def test_I24_metrics_live_on_their_own_loopback_listener_never_the_public_port(metered):
    # A sign-in of its own, so the counter exists whichever test ran first.
    assert login(metered).status_code == 200
    assert httpx.get(f"{metered.url}/metrics").status_code == 404
    answer = httpx.get(f"http://127.0.0.1:{metered.metrics_port}/metrics")
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    # The throttled counter and the live-session gauge are there to be graphed.
    names = {family.name for family in text_string_to_metric_families(answer.text)}
    assert {"gatehouse_active_sessions", "gatehouse_sign_in_attempts", "process_start_time_seconds"} <= names


@pytest.fixture(scope="module")
def admin_server():
    server = Server("003-peer-mentor", extra=("--service-role-key", SERVICE_ROLE_KEY))
    yield server
    server.close()


def admin(server, key=SERVICE_ROLE_KEY):
    return SyncGoTrueAdminAPI(url=f"{server.url}/auth/v1", headers={"Authorization": f"Bearer {key}", "apikey": key})


def test_I24_the_official_admin_client_creates_lists_updates_bans_and_deletes(admin_server):
    client = admin(admin_server)
    created = client.create_user({
        "email": "admin.made@example.com", "password": "a fine long passphrase", "email_confirm": True,
        "user_metadata": {"full_name": "Ada Made"},
    }).user
    assert created.email == "admin.made@example.com" and created.email_confirmed_at is not None
    assert created.user_metadata["full_name"] == "Ada Made"
    assert login(admin_server, "admin.made@example.com", "a fine long passphrase").status_code == 200

    everyone = client.list_users(page=1, per_page=50)
    assert {user.email for user in everyone} >= {EMAIL, "admin.made@example.com"}
    assert [user.id for user in client.list_users(page=2, per_page=1)] == [created.id]
    assert client.get_user_by_id(created.id).user.email == "admin.made@example.com"

    banned = client.update_user_by_id(created.id, {"ban_duration": "24h"}).user
    assert banned.banned_until is not None
    assert login(admin_server, "admin.made@example.com", "a fine long passphrase").status_code == 403
    client.update_user_by_id(created.id, {"ban_duration": "none", "password": "another long passphrase"})
    assert login(admin_server, "admin.made@example.com", "another long passphrase").status_code == 200

    with pytest.raises(AuthApiError) as taken:
        client.create_user({"email": EMAIL, "password": "a fine long passphrase"})
    assert taken.value.code == "email_exists"
    client.delete_user(created.id)
    with pytest.raises(AuthApiError) as gone:
        client.get_user_by_id(created.id)
    assert gone.value.status == 404


def test_S16_the_official_admin_clients_default_list_users_call_answers(admin_server):
    # supabase-auth's list_users() with no arguments sends ?page=&per_page=, which GoTrue reads
    # as the defaults (issue 35, point 16).
    everyone = admin(admin_server).list_users()
    assert EMAIL in {user.email for user in everyone}


def test_I24_the_anon_key_and_a_users_token_never_open_the_admin_api(admin_server):
    token = login(admin_server).json()["access_token"]
    for key in ("peer-mentor-demo-anon-key", token):
        with pytest.raises(AuthApiError) as refused:
            admin(admin_server, key).list_users()
        assert refused.value.status == 403


def audit_json(server, *args):
    return [json.loads(line) for line in server.cli("audit", "--json", *args).stdout.splitlines()]


def test_I24_the_audit_log_after_scripted_sign_ins_holds_every_event_and_no_secret():
    receiver = WebhookReceiver()
    server = Server("000-generic", extra=("--audit-webhook", receiver.url.replace("/sms", "/audit")),
                    environment={"GATEHOUSE_AUDIT_WEBHOOK_SECRET": receiver.secret})
    try:
        assert login(server, password="wrong-password").status_code == 401
        assert login(server, "nobody@example.com", "wrong-password").status_code == 401
        grant = login(server, agent="Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Version/17.5 Mobile/15E148 Safari/604.1").json()
        refreshed = httpx.post(f"{server.url}/api/auth/refresh", json={"refresh_token": grant["refresh_token"]}).json()
        assert httpx.post(f"{server.url}/api/auth/logout", headers={"Authorization": f"Bearer {refreshed['access_token']}"}).status_code == 204
        server.cli("users", "ban", "--email", EMAIL, "--for", "1h")
        # A clean stop writes whatever is still buffered.
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(timeout=15)
    finally:
        server.close()
    entries = audit_json(server)
    types = [entry["type"] for entry in reversed(entries)]
    # Oldest first: the CLI's account, the script's sign-ins, the logout, the ban.
    assert types == ["admin.create", "sign_in.refused", "sign_in.refused", "sign_in.succeeded", "session.ended", "admin.ban"], types
    assert types.count("sign_in.refused") == 2 and types.count("sign_in.succeeded") == 1
    assert "admin.ban" in types and "admin.create" in types
    succeeded = next(entry for entry in entries if entry["type"] == "sign_in.succeeded")
    assert succeeded["device"] == "iPhone · Safari" and succeeded["address"] == "127.0.0.1"
    ban = next(entry for entry in entries if entry["type"] == "admin.ban")
    assert ban["actor"].startswith("cli:") and ban["user_id"] == succeeded["user_id"]
    mine = audit_json(server, "--user", EMAIL)
    assert {entry["type"] for entry in mine} >= {"sign_in.refused", "sign_in.succeeded", "session.ended", "admin.ban"}
    assert all(entry["type"] != "sign_in.refused" or entry.get("user_id") is None for entry in mine)
    assert len([entry for entry in mine if entry["type"] == "sign_in.refused"]) == 1, "only the refusal that named this email"
    text = json.dumps(entries)
    for secret in (PASSWORD, "wrong-password", EMAIL, "nobody@example.com", grant["access_token"], grant["refresh_token"],
                   refreshed["refresh_token"]):
        assert secret not in text
    # The SIEM got the server's entries, signed; the CLI's own write is not forwarded.
    deadline = time.time() + 10
    while time.time() < deadline and sum(len(batch["entries"]) for batch in receiver.received) < 5:
        time.sleep(0.1)
    forwarded = [entry["type"] for batch in receiver.received for entry in batch["entries"]]
    assert forwarded.count("sign_in.refused") == 2 and "sign_in.succeeded" in forwarded and "session.ended" in forwarded
    assert all(batch["type"] == "audit.entries" for batch in receiver.received) and not receiver.rejected
    receiver.close()


def test_I24_audit_cli_refuses_bad_arguments_in_one_line(server):
    for args in (("--since", "yesterday"), ("--limit", "0"), ("--type", "DROP TABLE")):
        run = subprocess.run([BIN, "audit", *args, "--database", server.database], capture_output=True, text=True)
        assert run.returncode != 0 and len(run.stderr.strip().splitlines()) == 1, run.stderr
