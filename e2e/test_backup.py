"""Issue 40, part 2: `gatehouse backup` copies a live SQLite database while it serves sign-ins,
and `gatehouse restore` puts a checked copy in place of a stopped one, which then serves the
same accounts with the same key-encryption key."""
import os
import shutil
import subprocess
import threading

import requests

from conftest import BIN, EMAIL, PASSWORD, Server


def gatehouse(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=60)


def test_B01_a_backup_under_load_restores_to_a_server_with_the_same_accounts(tmp_path):
    server = Server()
    stop = threading.Event()
    outcomes = []

    def sign_in_until_stopped():
        while not stop.is_set():
            response = requests.post(server.url + "/api/auth/login", json={"email": EMAIL, "password": PASSWORD}, timeout=10)
            outcomes.append(response.status_code)

    workers = [threading.Thread(target=sign_in_until_stopped) for _ in range(3)]
    try:
        for worker in workers:
            worker.start()
        while len(outcomes) < 10:
            threading.Event().wait(0.05)
        backup = tmp_path / "backup.sqlite"
        made = gatehouse("backup", "--database", server.database, "--to", str(backup))
        during = len(outcomes)
        while len(outcomes) < during + 10:
            threading.Event().wait(0.05)
    finally:
        stop.set()
        for worker in workers:
            worker.join()
    assert made.returncode == 0, made.stderr
    assert "Backed up" in made.stdout and "accounts" in made.stdout and f"keep {server.database}.kek with it" in made.stdout
    assert set(outcomes) == {200}, "sign-ins went on while the copy was made"
    assert oct(os.stat(backup).st_mode & 0o777) == "0o600"

    again = gatehouse("backup", "--database", server.database, "--to", str(backup))
    assert again.returncode != 0 and "already exists" in again.stderr and len(again.stderr.splitlines()) == 1
    live = gatehouse("restore", "--from", str(backup), "--database", server.database)
    assert live.returncode != 0 and "is open in a running server" in live.stderr and len(live.stderr.splitlines()) == 1
    server.close()

    restored = tmp_path / "restored.sqlite"
    done = gatehouse("restore", "--from", str(backup), "--database", str(restored))
    assert done.returncode == 0, done.stderr
    assert "integrity ok" in done.stdout and f"{restored}.kek" in done.stdout
    shutil.copy(server.database + ".kek", str(restored) + ".kek")
    os.chmod(str(restored) + ".kek", 0o600)
    back = Server(database=str(restored))
    try:
        response = requests.post(back.url + "/api/auth/login", json={"email": EMAIL, "password": PASSWORD}, timeout=10)
        assert response.status_code == 200
        me = requests.get(back.url + "/api/me", headers={"Authorization": f"Bearer {response.json()['access_token']}"}, timeout=10)
        assert me.status_code == 200 and me.json()["email"] == EMAIL
    finally:
        back.close()


def test_B02_a_damaged_or_missing_backup_is_refused_in_one_line_and_changes_nothing(tmp_path):
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"SQLite format 3\x00" + os.urandom(4096))
    target = tmp_path / "target.sqlite"
    refused = gatehouse("restore", "--from", str(damaged), "--database", str(target))
    assert refused.returncode != 0 and "is not an intact Gatehouse database" in refused.stderr and len(refused.stderr.splitlines()) == 1
    assert not target.exists()
    missing = gatehouse("restore", "--from", str(tmp_path / "nothing.sqlite"), "--database", str(target))
    assert missing.returncode != 0 and "no such database file" in missing.stderr
    postgres = gatehouse("backup", "--database", "postgres://u:p@127.0.0.1:1/db", "--to", str(tmp_path / "x.sqlite"))
    assert postgres.returncode != 0 and "pg_dump" in postgres.stderr
