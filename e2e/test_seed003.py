"""Seed 003's stories on the screen configured as examples/003-peer-mentor."""
import time

from conftest import EMAIL, PASSWORD, Server
from pages import ENTER, TAB, banner_text, el, error_text, logins_in_log, open_login, rect, sign_in, submit, type_into, wait_for
from selenium.webdriver.common.by import By


def test_S003_invalid_email_on_submit_shows_inline_error_and_sends_nothing(browser, server003):
    driver = open_login(browser(), server003)
    before = logins_in_log(server003, "Sign-in ")
    type_into(driver, "email", "notanemail")
    type_into(driver, "password", "anything")
    assert el(driver, "submit").is_enabled(), "validate-on-submit keeps the button enabled"
    submit(driver)
    assert error_text(driver, "email") == "Please enter a valid email address"
    assert driver.switch_to.active_element == el(driver, "email")
    time.sleep(0.3)
    assert logins_in_log(server003, "Sign-in ") == before, "no request was made"


def test_S003_incorrect_credentials_show_plain_language_message(browser, server003):
    driver = browser()
    sign_in(driver, server003, EMAIL, "wrong-password")
    wait_for(driver, lambda d: banner_text(d) is not None)
    assert banner_text(driver) == "Incorrect email or password. Please try again."
    banner_top = rect(driver, el(driver, "banner"))[1]
    assert banner_top > rect(driver, el(driver, "password"))[1], "shown below the form"


def test_S003_eye_icon_is_on_the_right_of_the_password_field(browser, server003):
    driver = open_login(browser(), server003)
    field_left, _, field_width, _ = rect(driver, el(driver, "password"))
    toggle_left, _, toggle_width, _ = rect(driver, el(driver, "toggle-password"))
    assert toggle_left + toggle_width <= field_left + field_width + 1 and toggle_left > field_left + field_width / 2


def test_S003_focus_order_is_email_password_toggle_button(browser, server003):
    driver = open_login(browser(), server003)
    header = driver.find_element(By.TAG_NAME, "h1")
    assert header.text == "Sign in" and el(driver, "app-name").text == "Peer Mentor Network"
    driver.find_element(By.TAG_NAME, "body").send_keys(TAB)
    order = []
    for _ in range(4):
        order.append(driver.switch_to.active_element.get_attribute("id"))
        driver.switch_to.active_element.send_keys(TAB)
    assert order == ["email", "password", "toggle-password", "submit"]


def test_S003_screen_reader_names_and_roles(browser, server003):
    driver = open_login(browser(), server003)
    email = el(driver, "email")
    assert (email.accessible_name, email.aria_role) == ("Email address", "textbox")
    assert el(driver, "password").accessible_name == "Password"
    assert el(driver, "password").get_attribute("type") == "password"


def test_S003_return_moves_from_email_to_password_and_submits_from_password(browser, server003):
    driver = open_login(browser(), server003)
    type_into(driver, "email", EMAIL).send_keys(ENTER)
    assert driver.switch_to.active_element == el(driver, "password")
    el(driver, "password").send_keys(PASSWORD + ENTER)
    wait_for(driver, lambda d: d.current_url.endswith("/home"))


def test_S003_keyboard_open_on_iphone_se_keeps_password_and_button_visible(browser, server003):
    # 667 px tall, less the ~260 px a software keyboard covers.
    driver = open_login(browser(width=375, height=407), server003)
    el(driver, "password").click()
    time.sleep(0.3)
    height = driver.execute_script("return window.innerHeight")
    for element in ("password", "submit"):
        _, top, _, box_height = rect(driver, el(driver, element))
        assert top >= 0 and top + box_height <= height, (element, top, box_height, height)


def test_S003_remembers_the_user_when_the_app_is_reopened(browser, server003):
    first = browser()
    sign_in(first, server003, EMAIL, PASSWORD)
    wait_for(first, lambda d: d.current_url.endswith("/home"))
    cookies = [c for c in first.get_cookies() if c["name"].startswith("__Host-")]
    first.quit()
    reopened = browser()
    reopened.get(server003.url + "/login")
    for cookie in cookies:
        reopened.add_cookie({k: v for k, v in cookie.items() if k in ("name", "value", "path", "secure", "httpOnly", "sameSite", "expiry")})
    reopened.get(server003.url + "/")
    assert reopened.current_url.endswith("/home")


def test_S003_expired_session_lands_on_login_with_message(browser):
    server = Server("003-peer-mentor", extra=("--web-session-lifetime", "2"))
    try:
        driver = browser()
        sign_in(driver, server, EMAIL, PASSWORD)
        wait_for(driver, lambda d: d.current_url.endswith("/home"))
        time.sleep(2.5)
        driver.get(server.url + "/home")
        assert "/login" in driver.current_url
        assert banner_text(driver) == "Your session has expired. Please sign in again."
    finally:
        server.close()
