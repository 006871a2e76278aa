"""Issue 40's fault suite, SQLite part: the database's filesystem fills up under a running
server. Writes answer 503 `server_busy` with a log line (never a 500, never a crash), reads go
on, nothing half-written is left, and once space is freed everything works and
`PRAGMA integrity_check` is ok."""
import json
import os
import sqlite3
import subprocess
import tempfile
import time

import httpx
import pytest

from conftest import BIN, EMAIL, NAME, PASSWORD, Server

NEW_PASSWORD = "a long and quiet river"


@pytest.fixture
def small_filesystem():
    """A 3 MB tmpfs of the test's own (mounting needs root, which the CI runner has)."""
    folder = tempfile.mkdtemp(prefix="gatehouse-full-")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", folder], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    yield folder
    subprocess.run(["umount", "-l", folder], check=False)


def fill(folder):
    """Writes a file until the filesystem is full; returns its path."""
    path = os.path.join(folder, "filler")
    subprocess.run(["dd", "if=/dev/zero", f"of={path}", "bs=64k"], capture_output=True)
    assert os.statvfs(folder).f_bavail == 0
    return path


def test_F02_sqlite_on_a_full_filesystem_answers_writes_503_keeps_reading_and_recovers_intact(small_filesystem):
    database = os.path.join(small_filesystem, "gatehouse.sqlite")
    subprocess.run([BIN, "users", "create", "--email", EMAIL, "--name", NAME, "--password-stdin", "--allow-weak-password",
                    "--database", database], input=PASSWORD, text=True, check=True, capture_output=True)
    server = Server("002-peated", database=database)
    try:
        signed_in = httpx.post(server.url + "/api/auth/login", json={"email": EMAIL, "password": PASSWORD}).json()
        filler = fill(small_filesystem)
        for index in range(3):
            answer = httpx.post(server.url + "/api/auth/signup", json={"email": f"full{index}@example.com", "password": NEW_PASSWORD, "name": "Full"})
            assert answer.status_code == 503 and answer.json()["error"] == "server_busy", answer.text
            assert answer.headers["Retry-After"] == "1"
            login = httpx.post(server.url + "/api/auth/login", json={"email": EMAIL, "password": PASSWORD})
            assert login.status_code == 503 and login.json()["error"] == "server_busy"
        me = httpx.get(server.url + "/api/me", headers={"Authorization": f"Bearer {signed_in['access_token']}"})
        assert me.status_code == 200 and me.json()["email"] == EMAIL, "reads go on"
        assert "Database unavailable; answered 503" in server.log
        os.remove(filler)
        answer = httpx.post(server.url + "/api/auth/signup", json={"email": "full0@example.com", "password": NEW_PASSWORD, "name": "Full"})
        assert answer.status_code == 202, answer.text
        assert httpx.post(server.url + "/api/auth/login", json={"email": EMAIL, "password": PASSWORD}).status_code == 200
        # The refused sign-ups left nothing behind; the one after got its mail, once.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not os.path.exists(server.mail_outbox):
            time.sleep(0.1)
        time.sleep(0.5)
        mailed = [json.loads(line)["to"] for line in open(server.mail_outbox)]
        assert mailed == ["full0@example.com"], mailed
    finally:
        server.close()
    with sqlite3.connect(database) as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert check.execute("SELECT COUNT(*) FROM identities WHERE subject LIKE 'full%'").fetchone()[0] == 1
