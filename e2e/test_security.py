"""The web session without JavaScript, CSRF, security headers and signing out."""
import urllib.error
import urllib.request

import pytest
from conftest import EMAIL, NAME, PASSWORD
from pages import banner_text, el, error_text, open_login, post_and_wait, sign_in, type_into, wait_for
from selenium.webdriver.common.by import By


def test_works_without_javascript(browser, server):
    driver = open_login(browser(javascript=False), server)
    assert not el(driver, "toggle-password").is_displayed(), "no script ran"
    post_and_wait(driver)
    wait_for(driver, lambda d: d.find_elements(By.ID, "email-error") and error_text(d, "email"))
    assert error_text(driver, "email") == "Email is required"
    assert error_text(driver, "password") == "Password is required"
    type_into(driver, "email", EMAIL)
    type_into(driver, "password", "wrong-password")
    post_and_wait(driver)
    wait_for(driver, lambda d: d.find_elements(By.ID, "banner") and banner_text(d))
    assert banner_text(driver) == "Invalid email or password"
    assert el(driver, "email").get_attribute("value") == EMAIL and el(driver, "password").get_attribute("value") == ""
    type_into(driver, "password", PASSWORD)
    post_and_wait(driver)
    wait_for(driver, lambda d: d.current_url.endswith("/home") and d.find_elements(By.ID, "user-name"))
    assert el(driver, "user-name").text == NAME


def request(url, data=None, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers or {})) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def test_form_posts_without_the_csrf_token_are_refused(server):
    status, _, body = request(server.url + "/login", data=f"email={EMAIL}&password={PASSWORD}".encode(),
                              headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 403 and '"error":"csrf"' in body
    status, _, _ = request(server.url + "/logout", data=b"csrf=forged", headers={"Cookie": "__Host-gatehouse-csrf=other"})
    assert status == 403


@pytest.mark.parametrize("path", ["/login", "/home", "/assets/gatehouse.css", "/api/me", "/nowhere"])
def test_every_response_carries_the_security_headers(server, path):
    _, headers, _ = request(server.url + path)
    policy = headers["Content-Security-Policy"]
    assert "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"


def test_signed_in_visitor_goes_home_and_sign_out_cannot_be_undone_with_back(browser, server):
    driver = browser()
    driver.get(server.url + "/")
    assert driver.current_url.endswith("/login")
    sign_in(driver, server, EMAIL, PASSWORD)
    wait_for(driver, lambda d: d.current_url.endswith("/home"))
    driver.get(server.url + "/")
    assert driver.current_url.endswith("/home")
    el(driver, "sign-out").click()
    wait_for(driver, lambda d: d.current_url.endswith("/login"))
    driver.back()
    wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    assert not driver.find_elements(By.ID, "user-email"), "the signed-out home page is not shown again"


def test_pages_are_never_cached(server):
    _, headers, _ = request(server.url + "/login")
    assert headers["Cache-Control"] == "no-store"


def test_autofill_and_password_manager_hints(browser, server):
    driver = open_login(browser(), server)
    email, password = el(driver, "email"), el(driver, "password")
    # "webauthn": the email field also offers the device's passkeys (issue 23's autofill).
    assert email.get_attribute("autocomplete") == "username webauthn" and email.get_attribute("inputmode") == "email"
    assert email.get_attribute("autocapitalize") == "none" and email.get_attribute("spellcheck") == "false"
    assert password.get_attribute("autocomplete") == "current-password"
