"""Issue 39, part 2: changing the email with both addresses confirming. The official
supabase-auth client called with its defaults (`update_user({"email"})`, `verify_otp` with
`email_change`) against Peated with mail over aiosmtpd (STARTTLS and AUTH, parsed with Python's
`email`); a guest keeping its account by adding an address; and Home's "Change email" in real
Chromium at 375×667, light and dark with axe-core, with and without JavaScript."""
import re

import pytest
from selenium.webdriver.common.by import By
from supabase_auth import SyncGoTrueClient

from account_pages import mail_count, mails, peated  # noqa: F401
from pages import el, post_and_wait, type_into, wait_for
from test_accessibility import axe_violations
from test_account_deletion import signed_in
from test_email import ANON, link_and_code, mail, parts, smtp_peated  # noqa: F401
from test_guests import ANON as PEER_ANON

PASSWORD = "a long and quiet river"


@pytest.fixture(scope="module")
def peated_smtp(mail):
    server = smtp_peated(mail)
    yield server
    server.close()


def change_mail(message):
    """An email-change mail's token and code, each in both parts."""
    return link_and_code(message, pages="email-change")


def test_ECH_S1_update_user_email_needs_both_addresses_and_the_old_one_hears_of_it(peated_smtp, mail):
    peated_smtp.create_user("mover@example.com", "Mo Ver", PASSWORD)
    client = SyncGoTrueClient(url=peated_smtp.url + "/auth/v1", headers={"apikey": ANON}, auto_refresh_token=False, persist_session=False)
    client.sign_in_with_password({"email": "mover@example.com", "password": PASSWORD})
    before = len(mail.recorder.mails)
    updated = client.update_user({"email": "moved@example.com"})
    assert updated.user.email == "mover@example.com" and updated.user.new_email == "moved@example.com"
    received = {m["rcpt"][0]: m["message"] for m in mail.wait(before + 2)[before:]}
    assert received["moved@example.com"]["Subject"] == "Confirm your new Peated email"
    assert received["mover@example.com"]["Subject"] == "Confirm your Peated email change"
    assert "moved@example.com" in parts(received["mover@example.com"])[0]
    _, new_code = change_mail(received["moved@example.com"])
    _, old_code = change_mail(received["mover@example.com"])
    first = client.verify_otp({"email": "moved@example.com", "token": new_code, "type": "email_change"})
    assert first.user is None and first.session is None, "GoTrue's single-confirmation answer"
    done = client.verify_otp({"email": "mover@example.com", "token": old_code, "type": "email_change"})
    assert done.user.email == "moved@example.com" and done.user.email_confirmed_at and done.user.new_email is None
    assert client.sign_in_with_password({"email": "moved@example.com", "password": PASSWORD}).session.access_token
    notice = mail.wait(before + 3)[-1]
    assert notice["rcpt"] == ["mover@example.com"] and notice["message"]["Subject"] == "Your Peated email was changed"
    text, html = parts(notice["message"])
    assert "moved@example.com" in text and "This wasn't me" in text and "/email-change/revert?token=ghm_" in html
    assert not re.search(r"\b\d{6}\b", text), "the notice carries no code"
    assert new_code not in peated_smtp.log and old_code not in peated_smtp.log


def test_ECH_S2_a_taken_address_answers_alike_and_its_owner_is_told(peated_smtp, mail):
    peated_smtp.create_user("owner.taken@example.com", "Own Er", PASSWORD)
    peated_smtp.create_user("asker@example.com", "Ask Er", PASSWORD)
    client = SyncGoTrueClient(url=peated_smtp.url + "/auth/v1", headers={"apikey": ANON}, auto_refresh_token=False, persist_session=False)
    client.sign_in_with_password({"email": "asker@example.com", "password": PASSWORD})
    before = len(mail.recorder.mails)
    taken = client.update_user({"email": "owner.taken@example.com"})
    assert taken.user.new_email == "owner.taken@example.com", "answered as for a free address"
    received = {m["rcpt"][0]: m["message"] for m in mail.wait(before + 2)[before:]}
    assert received["owner.taken@example.com"]["Subject"] == "Someone tried to use your email on Peated"
    assert not re.search(r"\b\d{6}\b", parts(received["owner.taken@example.com"])[0]), "no code to the owner"
    assert received["asker@example.com"]["Subject"] == "Confirm your Peated email change"


def test_ECH_S3_a_guest_keeps_its_account_by_adding_an_email(server003):
    client = SyncGoTrueClient(url=server003.url + "/auth/v1", headers={"apikey": PEER_ANON}, auto_refresh_token=False, persist_session=False)
    guest = client.sign_in_anonymously()
    before = mail_count(server003)
    pending = client.update_user({"email": "kept.guest@example.com"})
    assert pending.user.is_anonymous and pending.user.new_email == "kept.guest@example.com"
    mail = mails(server003, before + 1)[-1]
    assert mail["to"] == "kept.guest@example.com" and mail["action"] == "email_change_new"
    done = client.verify_otp({"email": "kept.guest@example.com", "token": mail["code"], "type": "email_change"})
    assert done.user.id == guest.user.id and done.user.email == "kept.guest@example.com" and not done.user.is_anonymous
    assert client.get_user(guest.session.access_token).user.email == "kept.guest@example.com"
    assert len(mails(server003, before + 1)) == before + 1, "a guest has no old address to confirm or notify"


def home_email(driver):
    return el(driver, "user-email").text


def test_ECH_W1_home_changes_the_email_typed_key_by_key_and_both_links_confirm(browser, peated, axe_source):
    peated.create_user("web.mover@example.com", "Web Mover", PASSWORD)
    driver = browser()
    signed_in(driver, peated, "web.mover@example.com", PASSWORD)
    assert el(driver, "change-email").text == "Change email"
    post_and_wait(driver, "change-email")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Change your email"
    for theme in ("light", "dark"):
        if theme == "dark":
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        assert axe_violations(driver, axe_source) == [], theme
    type_into(driver, "email", "web.moved@example.com")
    type_into(driver, "password", "not the password")
    post_and_wait(driver)
    assert el(driver, "password-error").text == "That password isn't right"
    before = mail_count(peated)
    type_into(driver, "password", PASSWORD)
    post_and_wait(driver)
    assert "We sent a link and a 6-digit code to web.moved@example.com" in el(driver, "notice").text
    assert axe_violations(driver, axe_source) == []
    sent = {m["to"]: m for m in mails(peated, before + 2)[before:]}
    code = sent["web.moved@example.com"]["code"]
    for digit in code:  # six digits submit themselves
        el(driver, "code").send_keys(digit)
    wait_for(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Confirm your new email")
    assert el(driver, "notice").text == "Confirmed. Now confirm from the other address too; the change happens when both are confirmed."
    driver.get(sent["web.mover@example.com"]["link"])
    assert "Change the email of your Peated account to web.moved@example.com?" in el(driver, "notice").text
    assert el(driver, "cancel-change").text == "Cancel this change"
    post_and_wait(driver)
    wait_for(driver, lambda d: "/home" in d.current_url)
    assert el(driver, "home-notice").text == "Your email is now web.moved@example.com."
    assert home_email(driver) == "web.moved@example.com"


def test_ECH_W2_without_javascript_the_old_address_puts_it_back_and_resets(browser, peated):
    peated.create_user("nojs.mover@example.com", "No Script", PASSWORD)
    driver = browser(javascript=False)
    signed_in(driver, peated, "nojs.mover@example.com", PASSWORD)
    post_and_wait(driver, "change-email")
    type_into(driver, "email", "nojs.moved@example.com")
    type_into(driver, "password", PASSWORD)
    before = mail_count(peated)
    post_and_wait(driver)
    sent = {m["to"]: m for m in mails(peated, before + 2)[before:]}
    for address in ("nojs.moved@example.com", "nojs.mover@example.com"):
        driver.get(sent[address]["link"])
        post_and_wait(driver)
    notice = mails(peated, before + 3)[-1]
    assert notice["to"] == "nojs.mover@example.com" and notice["action"] == "email_changed_notification"
    driver.get(notice["link"])
    assert driver.find_element(By.TAG_NAME, "h1").text == "Put your email back?"
    post_and_wait(driver)
    wait_for(driver, lambda d: "/reset-password" in d.current_url)
    type_into(driver, "password", "the owner's own new passphrase")
    post_and_wait(driver)
    wait_for(driver, lambda d: "/home" in d.current_url)
    assert home_email(driver) == "nojs.mover@example.com"
