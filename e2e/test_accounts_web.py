"""Issue 22 on the web, in real Chromium at 375×667, against Peated's example
(`serve --config examples/002-peated/gatehouse.json`, mail to the server's outbox): seed 002's
"Forgot password?" and "Don't have an account? Sign up", sign-up → mail → link → Home, the
unverified message with "Resend email", forgot → reset → old sessions end, every page without
JavaScript, and axe-core in every new state, light and dark."""
import re
import time

import pytest
from selenium.webdriver.common.by import By

from account_pages import NEW_PASSWORD, mail_count, mails, peated, sign_up  # noqa: F401
from conftest import EMAIL, PASSWORD
from pages import banner_text, blur, el, open_login, post_and_wait, type_into, wait_for
from test_accessibility import axe_violations


def test_W01_peateds_login_has_its_logo_and_both_links(browser, peated):
    driver = open_login(browser(), peated)
    logo = driver.find_element(By.CSS_SELECTOR, "img.logo")
    assert logo.get_attribute("alt") == "Peated logo"
    assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", logo)
    forgot = el(driver, "forgot-link")
    assert forgot.text == "Forgot password?" and forgot.get_attribute("href").endswith("/forgot-password")
    assert el(driver, "signup-prompt").text == "Don't have an account?" and el(driver, "signup-link").text == "Sign up"
    left, width = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.width]", el(driver, "signup-link"))
    assert left >= 0 and left + width <= 375
    post_and_wait(driver, "signup-link")
    assert driver.current_url.endswith("/signup") and driver.find_element(By.TAG_NAME, "h1").text == "Create your account"
    assert driver.find_element(By.CSS_SELECTOR, "img.logo").get_attribute("alt") == "Peated logo", "the logo is on every page"


def test_W02_sign_up_then_the_mails_link_verifies_and_lands_on_home(browser, peated):
    driver = browser()
    before = mail_count(peated)
    sign_up(driver, peated, "Ada Lovelace", "ada.web@example.com")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Check your email"
    assert el(driver, "notice").text == "We sent a link to ada.web@example.com. Open it to verify your email address."
    mail = mails(peated, before + 1)[-1]
    assert mail["to"] == "ada.web@example.com" and mail["action"] == "signup"
    driver.get(mail["link"])
    assert driver.find_element(By.TAG_NAME, "h1").text == "Verify your email"
    post_and_wait(driver)
    assert driver.current_url.endswith("/home?done=verified")
    assert "ada.web@example.com" in driver.page_source


def test_S3_the_mails_link_opened_in_another_browser_verifies_but_does_not_sign_in(browser, peated):
    """Issue 35, point 3: a sign-up mail's link signs in only the browser that signed up;
    anywhere else (a victim who never asked for it) it verifies and asks to sign in."""
    signer = browser()
    before = mail_count(peated)
    sign_up(signer, peated, "Mal Lory", "pre.hijack@example.com")
    mail = mails(peated, before + 1)[-1]
    victim = browser()
    victim.get(mail["link"])
    post_and_wait(victim)
    assert victim.find_element(By.TAG_NAME, "h1").text == "Verify your email"
    assert el(victim, "notice").text == "Email verified. Sign in to continue."
    assert not victim.current_url.endswith("/home")
    assert "__Host-gatehouse-session" not in [cookie["name"] for cookie in victim.get_cookies()]


def test_W03_an_unverified_sign_in_says_so_and_offers_resend_email(browser, peated):
    driver = browser()
    before = mail_count(peated)
    sign_up(driver, peated, "Bo Unverified", "bo.web@example.com")
    first = len(mails(peated, before + 1))
    open_login(driver, peated)
    type_into(driver, "email", "bo.web@example.com")
    type_into(driver, "password", NEW_PASSWORD)
    el(driver, "submit").click()
    wait_for(driver, lambda d: banner_text(d) == "Please verify your email address.")
    resend = el(driver, "resend")
    assert resend.is_displayed() and resend.text == "Resend email"
    # The sign-up mail left moments ago: one mail per recipient a minute, so the resend waits,
    # on "Check your email", with the code field and the button counting down.
    post_and_wait(driver, "resend")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Check your email"
    assert re.fullmatch(r"Resend email in (1:00|0:[0-5]\d)", el(driver, "resend").text), el(driver, "resend").text
    assert not el(driver, "resend").is_enabled() and el(driver, "code").is_displayed()
    assert "Too many attempts" not in driver.page_source
    # A wrong password hears nothing about verification, and no resend is offered.
    open_login(driver, peated)
    type_into(driver, "email", "bo.web@example.com")
    type_into(driver, "password", "not the password at all")
    el(driver, "submit").click()
    wait_for(driver, lambda d: banner_text(d) == "Invalid email or password.")
    assert not el(driver, "resend-form").is_displayed()
    assert mail_count(peated) == first, "nothing more was mailed"


def test_W04_forgot_then_reset_signs_in_and_ends_the_old_sessions(browser, peated):
    peated.create_user("cy.web@example.com", "Cy Reset", PASSWORD)
    old = browser()
    open_login(old, peated)
    type_into(old, "email", "cy.web@example.com")
    type_into(old, "password", PASSWORD)
    el(old, "submit").click()
    wait_for(old, lambda d: d.current_url.endswith("/home"))
    driver = browser()
    open_login(driver, peated)
    post_and_wait(driver, "forgot-link")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Reset your password"
    before = mail_count(peated)
    type_into(driver, "email", "cy.web@example.com")
    post_and_wait(driver)
    assert el(driver, "notice").text == "If an account exists for cy.web@example.com, we sent it a link to reset the password."
    mail = mails(peated, before + 1)[-1]
    assert mail["action"] == "recovery"
    driver.get(mail["link"])
    assert driver.find_element(By.TAG_NAME, "h1").text == "Choose a new password"
    type_into(driver, "password", "password")
    post_and_wait(driver)
    assert el(driver, "password-error").text == "This password is too common. Please choose another."
    type_into(driver, "password", NEW_PASSWORD)
    post_and_wait(driver)
    assert driver.current_url.endswith("/home?done=password")
    assert el(driver, "home-notice").text == "Your password was changed."
    old.get(peated.url + "/home")
    wait_for(old, lambda d: "/login" in d.current_url)


def test_W05_every_new_page_works_without_javascript(browser, peated):
    driver = browser(javascript=False)
    before = mail_count(peated)
    sign_up(driver, peated, "Di NoScript", "di.web@example.com", password="short")
    assert el(driver, "password-error").text == "Password must be at least 8 characters"
    driver.find_element(By.ID, "password").send_keys(NEW_PASSWORD)
    post_and_wait(driver)
    assert el(driver, "notice").text.startswith("We sent a link to di.web@example.com")
    # The unverified message and "Resend email", server-rendered.
    open_login(driver, peated)
    type_into(driver, "email", "di.web@example.com")
    type_into(driver, "password", NEW_PASSWORD)
    post_and_wait(driver)
    assert banner_text(driver) == "Please verify your email address." and el(driver, "resend").is_displayed()
    # The code from the mail, typed on /verify-email, signs in.
    mail = mails(peated, before + 1)[-1]
    driver.get(peated.url + "/verify-email")
    type_into(driver, "email", "di.web@example.com")
    type_into(driver, "code", mail["code"])
    post_and_wait(driver)
    assert "/home" in driver.current_url
    # Forgot and reset by code, without JavaScript.
    fresh = browser(javascript=False)
    fresh.get(peated.url + "/forgot-password")
    type_into(fresh, "email", "di.web@example.com")
    post_and_wait(fresh)
    reset = mails(peated, before + 2)[-1]
    fresh.get(peated.url + "/reset-password")
    type_into(fresh, "email", "di.web@example.com")
    type_into(fresh, "code", reset["code"])
    type_into(fresh, "password", "the river keeps on going")
    post_and_wait(fresh)
    assert "/home" in fresh.current_url


def reach_account_state(driver, server, state):
    """Opens one of the new pages in the named state."""
    if state == "signup":
        driver.get(server.url + "/signup")
    elif state == "signup-errors":
        driver.get(server.url + "/signup")
        type_into(driver, "email", "not-an-address")
        type_into(driver, "password", "short")
        blur(driver)
        wait_for(driver, lambda d: el(d, "password-error").is_displayed())
    elif state == "check-email-wrong-code":
        sign_up(driver, server, "Ev Code", f"ev.{time.time_ns()}@example.com")
        type_into(driver, "code", "000000")
        post_and_wait(driver)
    elif state == "home-verified":
        address = f"hv.{time.time_ns()}@example.com"
        before = mail_count(server)
        sign_up(driver, server, "Hv Verified", address)
        type_into(driver, "code", mails(server, before + 1)[-1]["code"])
        post_and_wait(driver)
    elif state == "check-email":
        sign_up(driver, server, "Ev Axe", f"ev.{time.time_ns()}@example.com")
    elif state == "verify-link":
        driver.get(server.url + "/verify-email?token=ghm_example")
    elif state == "verify-code":
        driver.get(server.url + "/verify-email")
    elif state == "verify-expired":
        driver.get(server.url + "/verify-email?token=ghm_expired")
        post_and_wait(driver)
    elif state == "forgot":
        driver.get(server.url + "/forgot-password")
    elif state == "forgot-sent":
        driver.get(server.url + "/forgot-password")
        type_into(driver, "email", f"nobody.{time.time_ns()}@example.com")
        post_and_wait(driver)
    elif state == "reset":
        driver.get(server.url + "/reset-password?token=ghm_example")
    elif state == "unverified-login":
        address = f"ux.{time.time_ns()}@example.com"
        sign_up(driver, server, "Ux Unverified", address)
        open_login(driver, server)
        type_into(driver, "email", address)
        type_into(driver, "password", NEW_PASSWORD)
        el(driver, "submit").click()
        wait_for(driver, lambda d: banner_text(d) == "Please verify your email address.")


ACCOUNT_STATES = ["signup", "signup-errors", "check-email", "check-email-wrong-code", "home-verified", "verify-link", "verify-code", "verify-expired", "forgot",
                  "forgot-sent", "reset", "unverified-login"]


@pytest.mark.parametrize("layout", ["375", "320-text-200"])
@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("state", ACCOUNT_STATES)
def test_W06_axe_finds_no_violations_in_any_new_state(browser, peated, axe_source, state, theme, layout):
    """Issue 36 adds 320 px with text at 200 %: nothing may overflow or overlap there either."""
    driver = browser(dark=theme == "dark", width=320 if layout != "375" else 375)
    reach_account_state(driver, peated, state)
    if layout != "375":
        driver.execute_script("document.documentElement.style.fontSize = '200%'")
        overflow = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{state}: {overflow} px of horizontal scrolling at 320 px with 200 % text"
    violations = axe_violations(driver, axe_source)
    assert violations == [], [(v["id"], v.get("help"), [n.get("target") for n in v.get("nodes", [])]) for v in violations]
