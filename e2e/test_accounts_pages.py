"""Issue 36 on Peated's account pages, at both phone sizes (`sized`): "Check your email" with the
mailed code and a counting-down "Resend email", spent links, validation on blur, the spinner, focus
on the first error, and the reset page's links."""
import re
import time

import pytest
from selenium.webdriver.common.by import By

from account_pages import NEW_PASSWORD, mail_count, mails, peated, sign_up  # noqa: F401
from conftest import Server, free_port
from pages import blur, el, post_and_wait, type_into, wait_for


# Issue 36: every page after the login page as good as the login page, at both of its phone
# sizes (375×667 and 390×844).

# (`sized`, from conftest, runs a test at both sizes.)

@pytest.fixture(scope="module")
def peated_quick():
    """Peated with a 3-second resend window, to watch "Resend email" count down and come back."""
    port = free_port()
    server = Server("002-peated", extra=("--public-url", f"http://localhost:{port}", "--email-resend-after", "3"), port=port)
    yield server
    server.close()


def test_I36_check_your_email_takes_the_mailed_code_typed_key_by_key(sized, peated):
    """Point 5: every mail says "Or enter this code"; "Check your email" now has the field."""
    driver = sized()
    before = mail_count(peated)
    sign_up(driver, peated, "Cole Code", f"cole.code.{time.time_ns()}@example.com")
    assert el(driver, "code-hint").text == "Or enter the code from the email."
    assert el(driver, "code").get_attribute("autocomplete") == "one-time-code"
    code = mails(peated, before + 1)[-1]["code"]
    box = el(driver, "code")
    box.click()
    for key in code:
        box.send_keys(key)
    post_and_wait(driver)
    assert driver.current_url.endswith("/home?done=verified")
    assert el(driver, "home-notice").text == "Your email address is verified."


def test_I36_a_wrong_code_stays_on_check_your_email_with_the_error_under_the_field(sized, peated):
    driver = sized()
    sign_up(driver, peated, "Wren Wrong", f"wren.wrong.{time.time_ns()}@example.com")
    type_into(driver, "code", "000000")
    post_and_wait(driver)
    assert driver.find_element(By.TAG_NAME, "h1").text == "Check your email"
    assert el(driver, "code-error").is_displayed() and el(driver, "code").get_attribute("aria-invalid") == "true"
    assert driver.switch_to.active_element == el(driver, "code"), "focus goes to the field in error"
    assert el(driver, "resend").is_displayed()


def test_I36_resend_email_counts_down_then_sends_and_says_so(sized, peated_quick):
    """Points 4 and 9: after a sign-up "Resend email" counts down (one wait, shown once),
    comes back by itself, sends, confirms, and counts down again. No dead end."""
    driver = sized()
    before = mail_count(peated_quick)
    address = f"rhea.{time.time_ns()}@example.com"
    sign_up(driver, peated_quick, "Rhea Resend", address)
    resend = el(driver, "resend")
    assert re.fullmatch(r"Resend email in 0:0[1-3]", resend.text) and not resend.is_enabled()
    assert "Too many attempts" not in driver.page_source and not el(driver, "banner").is_displayed()
    wait_for(driver, lambda d: el(d, "resend").is_enabled(), timeout=6)
    assert el(driver, "resend").text == "Resend email"
    post_and_wait(driver, "resend")
    assert el(driver, "notice").text == f"If {address} needs verifying, a new link is on its way."
    assert len(mails(peated_quick, before + 2)) == before + 2
    assert re.fullmatch(r"Resend email in 0:0[1-3]", el(driver, "resend").text)
    assert el(driver, "code").is_displayed()


def test_I36_resend_pressed_too_early_without_javascript_shows_the_wait_once_and_keeps_the_way_forward(sized, peated):
    driver = sized(javascript=False)
    before = mail_count(peated)
    sign_up(driver, peated, "Nia NoScript", f"nia.noscript.{time.time_ns()}@example.com")
    post_and_wait(driver, "resend")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Check your email"
    assert re.fullmatch(r"Resend email in (1:00|0:[0-5]\d)", el(driver, "resend").text)
    assert "Too many attempts" not in driver.page_source
    type_into(driver, "code", mails(peated, before + 1)[-1]["code"])
    post_and_wait(driver)
    assert "/home" in driver.current_url


def test_I36_a_spent_link_reopened_while_signed_in_says_so_and_offers_continue(sized, peated):
    """Point 5: reopening a used link while signed in showed a red "expired" and nothing to do."""
    driver = sized()
    before = mail_count(peated)
    sign_up(driver, peated, "Sol Spent", f"sol.spent.{time.time_ns()}@example.com")
    link = mails(peated, before + 1)[-1]["link"]
    driver.get(link)
    post_and_wait(driver)
    assert "/home" in driver.current_url
    driver.get(link)
    post_and_wait(driver)
    assert el(driver, "notice").text == "This link was already used, and you are signed in."
    assert not driver.find_elements(By.CSS_SELECTOR, ".banner:not([hidden])")
    post_and_wait(driver, "continue-link")
    assert driver.current_url.endswith("/home")


def test_I36_sign_up_checks_each_field_on_leaving_it_and_the_password_can_be_shown(sized, peated):
    """Point 8: the login page's behaviour on sign-up: validation on blur with the app's submit
    policy (Peated: disabled until valid), a show/hide toggle, and the app's wording."""
    driver = sized()
    driver.get(peated.url + "/signup")
    assert not el(driver, "submit").is_enabled()
    type_into(driver, "email", "not-an-address")
    assert not el(driver, "email-error").is_displayed(), "no error while typing"
    type_into(driver, "password", "short")
    assert el(driver, "email-error").text == "Please enter a valid email"
    blur(driver)
    assert el(driver, "password-error").text == "Password must be at least 8 characters"
    toggle = driver.find_element(By.CSS_SELECTOR, "[data-toggle=password]")
    assert toggle.get_attribute("aria-label") == "Show password"
    toggle.click()
    assert el(driver, "password").get_attribute("type") == "text" and toggle.get_attribute("aria-label") == "Hide password"
    assert el(driver, "signin-link").text == "Sign in", "Peated says Sign In, so its links say Sign in"


def test_I36_sign_up_shows_a_spinner_and_a_double_press_signs_up_once(sized, peated):
    driver = sized()
    driver.get(peated.url + "/signup")
    type_into(driver, "name", "Dot Double")
    type_into(driver, "email", f"dot.double.{time.time_ns()}@example.com")
    type_into(driver, "password", NEW_PASSWORD)
    before = mail_count(peated)
    driver.execute_script("""
        const button = document.getElementById('submit');
        window.__busy = [];
        new MutationObserver(() => window.__busy.push(button.getAttribute('aria-busy'))).observe(button, {attributes: true});
        document.getElementById('signup-form').requestSubmit(button);
        document.getElementById('signup-form').requestSubmit(button);""")
    wait_for(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Check your email")
    time.sleep(0.5)
    assert mail_count(peated) == before + 1


def test_I36_after_a_refused_submit_without_javascript_focus_is_on_the_first_error(sized, peated):
    driver = sized(javascript=False)
    driver.get(peated.url + "/signup")
    type_into(driver, "name", "Fay Focus")
    post_and_wait(driver)
    assert driver.switch_to.active_element.get_attribute("id") == "email"
    assert el(driver, "email-error").text == "Email is required"


def test_I36_the_reset_page_offers_no_forgot_password(sized, peated):
    driver = sized()
    driver.get(peated.url + "/reset-password?token=ghm_example")
    assert not driver.find_elements(By.ID, "forgot-link")
    assert driver.find_element(By.CSS_SELECTOR, "[data-toggle=password]").is_displayed()
