"""Stored password hashes work both ways between Gatehouse and another argon2id implementation.

argon2-cffi (PyPI, over the reference C code) verifies the PHC strings `gatehouse users create`
stores, and hashes it makes, written straight into the database as an import would, sign in
through the REST API: at OWASP's parameters (Gatehouse's libsodium path) and at argon2-cffi's
own defaults, four lanes (the libargon2 path)."""
import sqlite3

import pytest
import requests
from argon2 import PasswordHasher, Type

from conftest import Server


def stored_hash(server, email):
    with sqlite3.connect(server.database) as db:
        return db.execute(
            "SELECT p.hash FROM password_credentials p JOIN identities i ON i.user_id = p.user_id "
            "WHERE i.provider = 'email' AND i.subject = ?", (email,)).fetchone()[0]


def replace_hash(server, email, encoded):
    with sqlite3.connect(server.database) as db:
        db.execute(
            "UPDATE password_credentials SET hash = ? WHERE user_id = "
            "(SELECT user_id FROM identities WHERE provider = 'email' AND subject = ?)", (encoded, email))


def login(server, email, password):
    return requests.post(f"{server.url}/api/auth/login", json={"email": email, "password": password}, timeout=30)


@pytest.fixture(scope="module")
def interop():
    server = Server()
    yield server
    server.close()


def test_argon2cffi_verifies_the_hashes_gatehouse_stores(interop):
    interop.create_user("made-here@example.com", "Made Here", "a passphrase made here")
    encoded = stored_hash(interop, "made-here@example.com")
    assert encoded.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert PasswordHasher().verify(encoded, "a passphrase made here")
    with pytest.raises(Exception):
        PasswordHasher().verify(encoded, "another passphrase")


@pytest.mark.parametrize("hasher", [
    PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1, hash_len=32, salt_len=16, type=Type.ID),
    PasswordHasher(),  # argon2-cffi's defaults: t=3, m=64 MiB, p=4
    PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1, hash_len=32, salt_len=24, type=Type.ID),
], ids=["owasp-p1", "argon2cffi-defaults-p4", "longer-salt"])
def test_hashes_argon2cffi_made_sign_in(interop, hasher):
    email = f"imported-{hasher.parallelism}-{hasher.salt_len}@example.com"
    interop.create_user(email, "Imported", "placeholder passphrase")
    replace_hash(interop, email, hasher.hash("an imported passphrase"))
    assert login(interop, email, "an imported passphrase").status_code == 200
    wrong = login(interop, email, "not the passphrase")
    assert wrong.status_code == 401 and wrong.json()["error"] == "invalid_credentials"
