"""Issue 39, part 1 end to end: "Email me a sign-in code" on Peated's example (its app file lists
`emailCode`). Mail over a real SMTP server (aiosmtpd with STARTTLS and AUTH) parsed with Python's
`email`; the official supabase-auth client with its defaults (`sign_in_with_otp`, `verify_otp`);
and the web pages in real Chromium at 375×667, typed key by key, with and without JavaScript,
and axe-core light and dark."""
import re
import time

import pytest
from selenium.webdriver.common.by import By
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from account_pages import mail_count, mails, peated as peated_web  # noqa: F401
from conftest import EMAIL
from pages import el, open_login, post_and_wait, type_into, wait_for
from test_accessibility import axe_violations
from test_email import ANON, call, mail, parts, peated  # noqa: F401
from conftest import Server
from timing import paired_gap


def code_and_token(message):
    """The code and the sign-in link's token of a sign-in mail, found in both parts."""
    text, html = parts(message)
    link = re.search(r"https?://\S+/sign-in-link\?token=(ghm_[A-Za-z0-9_-]+)", text)
    code = re.search(r"\b(\d{6})\b", text)
    assert link and code, text
    assert link.group(1) in html and code.group(1) in html
    return code.group(1), link.group(1)


def test_EC_M1_theCodeArrivesOverSMTPAndSignsInOnceAndUnknownAddressesGetNothing(peated, mail):
    before = len(mail.recorder.mails)
    assert call(peated.url + "/api/auth/email/otp", {"email": "User@Example.com"}) == (202, {"status": "accepted", "email": EMAIL})
    assert call(peated.url + "/api/auth/email/otp", {"email": "nobody.code@example.com"}) == (
        202, {"status": "accepted", "email": "nobody.code@example.com"})
    received = mail.wait(before + 1)[-1]
    assert received["tls"] and received["auth"] and received["rcpt"] == [EMAIL]
    message = received["message"]
    assert message["Subject"] == "Your Peated sign-in code"
    code, token = code_and_token(message)
    text, _ = parts(message)
    assert "It expires in 10 minutes and works once." in text
    status, grant = call(peated.url + "/api/auth/email/otp/verify", {"email": EMAIL, "code": code})
    assert status == 200 and grant["user"]["email"] == EMAIL
    assert call(peated.url + "/api/auth/email/otp/verify", {"token": token})[0] == 410, "one sign-in per mail"
    time.sleep(0.5)
    assert all(m["rcpt"] != ["nobody.code@example.com"] for m in mail.recorder.mails)
    assert code not in peated.log and token not in peated.log


def test_EC_M2_theOfficialClientSignsInWithOtpByCodeAndByMagicLinkAndCreatesAnAccount(peated, mail):
    client = SyncGoTrueClient(url=peated.url + "/auth/v1", headers={"apikey": ANON}, auto_refresh_token=False, persist_session=False)
    before = len(mail.recorder.mails)
    peated.create_user("otp.person@example.com", "Otto Person", "a long and quiet river")
    client.sign_in_with_otp({"email": "otp.person@example.com"})
    code, _ = code_and_token(mail.wait(before + 1)[-1]["message"])
    verified = client.verify_otp({"email": "otp.person@example.com", "token": code, "type": "email"})
    assert verified.session.access_token and verified.user.email == "otp.person@example.com"
    # should_create_user defaults to true: a new address gets an account when its link is used.
    client.sign_in_with_otp({"email": "brand.new@example.com", "options": {"data": {"full_name": "Brand New"}}})
    _, token = code_and_token(mail.wait(before + 2)[-1]["message"])
    created = client.verify_otp({"token_hash": token, "type": "magiclink"})
    assert created.user.email == "brand.new@example.com" and created.user.email_confirmed_at
    assert created.user.user_metadata.get("full_name") == "Brand New"
    with pytest.raises(AuthApiError) as spent:
        client.verify_otp({"token_hash": token, "type": "magiclink"})
    assert spent.value.status in (403, 410)
    # should_create_user false: an unknown address is answered alike, and nothing is sent.
    client.sign_in_with_otp({"email": "never.made@example.com", "options": {"should_create_user": False}})
    time.sleep(0.5)
    assert len(mail.recorder.mails) == before + 2


def test_EC_W1_the_login_screens_button_sends_the_typed_address_a_code_that_signs_in_as_typed(browser, peated_web, axe_source):
    driver = browser()
    open_login(driver, peated_web)
    assert el(driver, "email-code").text == "Email me a sign-in code"
    type_into(driver, "email", EMAIL)
    before = mail_count(peated_web)
    post_and_wait(driver, "email-code")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Check your email"
    assert el(driver, "notice").text == f"We sent a 6-digit code to {EMAIL}. It expires in 10 minutes."
    assert driver.switch_to.active_element.get_attribute("id") == "code"
    assert re.fullmatch(r"Resend email in (1:00|0:[0-5]\d)", el(driver, "resend").text)
    for theme in ("light", "dark"):
        if theme == "dark":
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        assert axe_violations(driver, axe_source) == [], theme
    mail = mails(peated_web, before + 1)[-1]
    assert mail["to"] == EMAIL and mail["action"] == "magiclink"
    box = el(driver, "code")
    for digit in mail["code"][:-1]:
        box.send_keys(digit)
    assert "/home" not in driver.current_url
    old = driver.find_element(By.TAG_NAME, "html")
    box.send_keys(mail["code"][-1])  # the sixth digit submits
    wait_for(driver, lambda d: "/home" in d.current_url)
    assert EMAIL in driver.page_source
    del old


def test_EC_W2_without_javascript_the_code_and_the_links_one_button_each_sign_in(browser, peated_web):
    driver = browser(javascript=False)
    open_login(driver, peated_web)
    before = mail_count(peated_web)
    post_and_wait(driver, "email-code")  # no script copies the typed address: the next page asks
    assert driver.find_element(By.TAG_NAME, "h1").text == "Sign in with a code"
    assert el(driver, "email-error").text == "Email is required"
    type_into(driver, "email", "nojs.code@example.com")
    peated_web.create_user("nojs.code@example.com", "No Script", "a long and quiet river")
    post_and_wait(driver)
    mail = mails(peated_web, before + 1)[-1]
    type_into(driver, "code", "000000" if mail["code"] != "000000" else "111111")
    post_and_wait(driver)
    assert el(driver, "code-error").text == "Incorrect code. Tries left: 4"
    type_into(driver, "code", mail["code"])
    post_and_wait(driver)
    assert "/home" in driver.current_url
    # A new code's link: opening it shows one button and spends nothing; the button signs in.
    other = browser(javascript=False)
    peated_web.create_user("link.code@example.com", "Lin Kay", "a long and quiet river")
    other.get(peated_web.url + "/sign-in-code")
    type_into(other, "email", "link.code@example.com")
    post_and_wait(other)
    link = mails(peated_web, before + 2)[-1]["link"]
    other.get(link)
    assert el(other, "notice").text == "Tap Sign in to finish signing in."
    assert "__Host-gatehouse-session" not in [cookie["name"] for cookie in other.get_cookies()]
    post_and_wait(other)
    assert "/home" in other.current_url


@pytest.mark.timing
def test_EC_T1_the_code_request_and_an_email_change_answer_taken_and_free_addresses_alike_in_status_body_and_time():
    """Within 5 ms (the median of 12 alternating pairs' differences, e2e/timing.py), half for
    addresses with an account: the sign-in code's request, then a signed-in change of email to
    each address (issue 39, part 2). Each address is used once: a second mail to it would meet the
    one-a-minute limit."""
    import requests
    server = Server("002-peated", extra=("--mail-limit", "500"))
    try:
        known = [f"known{i}@example.com" for i in range(12)]
        for address in known:
            server.create_user(address, "Known Person", "a long and quiet river")
        unknown = [f"stranger{i}@example.com" for i in range(12)]
        for warm in range(3):  # the first requests pay for connections and caches
            requests.post(server.url + "/api/auth/email/otp", json={"email": f"warm{warm}@example.com"}, timeout=10)
        headers = {"known": set(), "unknown": set()}

        def request_code(address):
            response = requests.post(server.url + "/api/auth/email/otp", json={"email": address}, timeout=10)
            assert response.status_code == 202 and response.json() == {"status": "accepted", "email": address}
            headers["known" if address in known else "unknown"] |= {name.lower() for name in response.headers}
        gap, differences = paired_gap(request_code, known, unknown)
        assert headers["known"] == headers["unknown"]
        assert abs(gap) < 0.005, differences
        assert {line["to"] for line in mails(server, 12)} == set(known)
        # An email change to a taken address answers as one to a free address.
        server.create_user("changer@example.com", "Chan Ger", "a long and quiet river")
        token = requests.post(server.url + "/api/auth/login", json={"email": "changer@example.com", "password": "a long and quiet river"},
                              timeout=10).json()["access_token"]
        bearer = {"Authorization": f"Bearer {token}"}
        for warm in range(3):
            requests.post(server.url + "/api/auth/email/change", json={"email": f"warm.change{warm}@example.com"}, headers=bearer, timeout=10)
        headers = {"known": set(), "unknown": set()}

        def request_change(address):
            response = requests.post(server.url + "/api/auth/email/change", json={"email": address}, headers=bearer, timeout=10)
            assert response.status_code == 202 and response.json() == {"status": "pending", "email": address}, response.text
            headers["known" if address in known else "unknown"] |= {name.lower() for name in response.headers}
        gap, differences = paired_gap(request_change, known, unknown)
        assert headers["known"] == headers["unknown"]
        assert abs(gap) < 0.005, differences
    finally:
        server.close()
