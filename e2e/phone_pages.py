"""Helpers for seed 004's phone screens: a server with UrbanNest's app file and an SMS outbox."""
import json
import os
import tempfile
import time

import pytest

from conftest import Server
from pages import el, wait_for

DEMO_PHONE, DEMO_NATIONAL = "+919876543210", "9876543210"
# Roomy phone limits for the shared server; the limits themselves have servers of their own.
ROOMY_PHONE = ("--resend-after", "0", "--phone-sends-per-window", "100000", "--phone-sends-per-day", "100000",
               "--phone-address-limit", "100000")


class PhoneServer(Server):
    """`gatehouse serve` with examples/004-urbannest and an outbox file, with the demo phone account."""

    def __init__(self, phone_limits=ROOMY_PHONE, extra=(), outbox=True, environment=None, port=None):
        self.outbox = None
        path = os.path.join(tempfile.mkdtemp(prefix="gatehouse-outbox-"), "outbox.jsonl")
        sms = ("--sms-outbox", path) if outbox else ()
        super().__init__("004-urbannest", extra=(*sms, *phone_limits, *extra), environment=environment, port=port)
        self.outbox = path
        self.cli("users", "create", "--phone", DEMO_PHONE, "--name", "Demo User")

    def codes(self, phone=DEMO_PHONE):
        if not os.path.exists(self.outbox):
            return []
        with open(self.outbox) as lines:
            return [json.loads(line) for line in lines if json.loads(line)["to"] == phone]

    def latest_code(self, phone=DEMO_PHONE, after=0):
        """The newest code sent to `phone`, once more than `after` have been sent."""
        for _ in range(100):
            messages = self.codes(phone)
            if len(messages) > after:
                return messages[-1]["code"]
            time.sleep(0.1)
        raise AssertionError(f"no code for {phone} in {self.outbox}")

    def close(self):
        super().close()
        if self.outbox and os.path.exists(self.outbox):
            os.remove(self.outbox)


@pytest.fixture(scope="session")
def server004():
    server = PhoneServer()
    yield server
    server.close()


def type_number(driver, text):
    box = el(driver, "phone")
    box.click()
    box.send_keys(text)
    return box


def request_code(driver, server, national=DEMO_NATIONAL):
    """Opens the phone screen, types the number and presses Send OTP; waits for the code screen."""
    before = len(server.codes("+91" + national))
    open_phone(driver, server)
    type_number(driver, national)
    wait_for(driver, lambda d: el(d, "send").is_enabled())
    el(driver, "send").click()
    wait_for(driver, lambda d: d.current_url.endswith("/login/code"))
    wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    return server.latest_code("+91" + national, after=before)


def settled(driver):
    """Waits for the page to load and its entry animation to finish, as a person would see it."""
    wait_for(driver, lambda d: d.execute_script(
        "return document.readyState === 'complete' && document.getAnimations().every(a => a.playState !== 'running')"))
    return driver


def open_phone(driver, server, path="/login"):
    """Opens a phone screen once it has settled."""
    driver.get(server.url + path)
    return settled(driver)


def visible_text(driver, element_id):
    """The element's text while it is shown, else None."""
    box = el(driver, element_id)
    return box.text if box.is_displayed() else None
