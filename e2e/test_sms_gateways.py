"""Seed 004's real SMS paths: each of Kannel, a Standard Webhooks receiver and the outbox
delivers a code that signs in through the real server."""
import os

import pytest
import requests

from phone_pages import DEMO_PHONE, PhoneServer
from sms_gateways import Kannel, WebhookReceiver


def sign_in_with(server, code_for):
    sent = requests.post(server.url + "/api/auth/phone/otp", json={"phone": "98765 43210", "country": "IN"})
    assert sent.status_code == 200, sent.text
    code = code_for()
    verified = requests.post(server.url + "/api/auth/phone/verify", json={"verification_id": sent.json()["verification_id"], "code": code})
    assert verified.status_code == 200, verified.text
    assert verified.json()["user"]["name"] == "Demo User"


def test_S004_kannel_delivers_a_code_that_signs_in():
    kannel = Kannel()
    server = None
    try:
        server = PhoneServer(outbox=False, extra=("--sms-kannel", kannel.url, "--sms-kannel-user", kannel.user),
                             environment={"GATEHOUSE_KANNEL_PASSWORD": kannel.password})
        def code():
            value, text = kannel.wait_for_code(DEMO_PHONE)
            assert text == f"{value} is your UrbanNest code. It expires in 5 minutes. Don't share it.\n\n@127.0.0.1 #{value}"
            return value
        sign_in_with(server, code)
        assert kannel.password not in server.log
    finally:
        if server:
            server.close()
        kannel.close()


def test_S004_webhook_receiver_verifies_the_signature_and_its_code_signs_in():
    receiver = WebhookReceiver(failures=2)
    server = None
    try:
        server = PhoneServer(outbox=False, extra=("--sms-webhook", receiver.url), environment={"GATEHOUSE_SMS_WEBHOOK_SECRET": receiver.secret})
        def code():
            assert receiver.received, f"nothing delivered; rejected: {receiver.rejected}"
            payload = receiver.received[-1]
            assert payload["user"]["phone"] == DEMO_PHONE
            assert payload["sms"]["message"].startswith(payload["sms"]["otp"] + " is your UrbanNest code.")
            return payload["sms"]["otp"]
        sign_in_with(server, code)
        assert receiver.rejected == [], "every delivery was signed correctly"
    finally:
        if server:
            server.close()
        receiver.close()


def test_S004_webhook_that_keeps_failing_is_503_sms_unavailable():
    receiver = WebhookReceiver(failures=100)
    server = None
    try:
        server = PhoneServer(outbox=False, extra=("--sms-webhook", receiver.url), environment={"GATEHOUSE_SMS_WEBHOOK_SECRET": receiver.secret})
        sent = requests.post(server.url + "/api/auth/phone/otp", json={"phone": "98765 43210", "country": "IN"})
        assert sent.status_code == 503 and sent.json()["error"] == "sms_unavailable"
        assert receiver.received == []
    finally:
        if server:
            server.close()
        receiver.close()


def test_S004_outbox_delivers_a_code_that_signs_in():
    server = PhoneServer()
    try:
        sign_in_with(server, lambda: server.latest_code())
    finally:
        server.close()
