"""Peated's account pages (seed 002) for the browser suites: the server, its mail outbox and a
sign-up as a person types it."""
import json
import os
import time

import pytest

from conftest import Server, free_port
from pages import post_and_wait, type_into

NEW_PASSWORD = "a long and quiet river"


@pytest.fixture(scope="module")
def peated():
    # The mail's links on the host the browser signs up on: a sign-up's link signs in only in
    # the browser that holds the sign-up's cookie, and cookies are per host.
    port = free_port()
    server = Server("002-peated", extra=("--public-url", f"http://localhost:{port}"), port=port)
    yield server
    server.close()


def mails(server, count, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if os.path.exists(server.mail_outbox):
            lines = [json.loads(line) for line in open(server.mail_outbox).read().splitlines()]
            if len(lines) >= count:
                return lines
        time.sleep(0.05)
    raise AssertionError(f"fewer than {count} mails")


def mail_count(server):
    return len(open(server.mail_outbox).read().splitlines()) if os.path.exists(server.mail_outbox) else 0


def sign_up(driver, server, name, email, password=NEW_PASSWORD):
    driver.get(server.url + "/signup")
    type_into(driver, "name", name)
    type_into(driver, "email", email)
    type_into(driver, "password", password)
    post_and_wait(driver)
