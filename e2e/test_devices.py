"""Issue 24's device list in real Chromium: Home's "Your devices" lists this browser and a
second client, marks this one, and its "Sign out" ends the other device's tokens at once."""
import json
import urllib.error
import urllib.request

from conftest import PASSWORD
from pages import el, sign_in, wait_for
from selenium.webdriver.common.by import By
from test_accessibility import axe_violations

ACCOUNTS = iter(range(1, 10_000))
CURL = "curl/8.5.0"


def api(server, path, method="GET", body=None, token=None):
    """A request from a second client (`curl`), answered as (status, JSON body)."""
    request = urllib.request.Request(server.url + path, method=method, data=json.dumps(body).encode() if body else None)
    request.add_header("User-Agent", CURL)
    if body:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def two_devices(browser, server, javascript=True):
    email = f"devices{next(ACCOUNTS)}@example.com"
    server.create_user(email, "Demo User", PASSWORD)
    status, grant = api(server, "/api/auth/login", "POST", {"email": email, "password": PASSWORD})
    assert status == 200
    driver = browser(javascript=javascript)
    sign_in(driver, server, email, PASSWORD)
    wait_for(driver, lambda d: "/home" in d.current_url and d.find_elements(By.ID, "device-list"))
    return driver, grant


def rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#device-list li")


def test_I24_home_lists_this_browser_and_the_other_client_with_this_one_marked(browser, server, axe_source):
    driver, _ = two_devices(browser, server)
    assert el(driver, "devices-title").text == "Your devices"
    listed = [row.find_element(By.CLASS_NAME, "device-name").text for row in rows(driver)]
    # The browser is named from its (phone-emulating) user agent; the other client from its own.
    assert len(listed) == 2 and "curl" in listed, listed
    assert next(name for name in listed if name != "curl").endswith(" · This device"), listed
    for row in rows(driver):
        assert row.find_element(By.CSS_SELECTOR, "p.device-meta").text.startswith("Last active ")
        assert row.find_element(By.CSS_SELECTOR, "button").text == "Sign out"
    assert axe_violations(driver, axe_source) == []


def test_I24_signing_the_other_device_out_ends_its_tokens_at_once(browser, server):
    driver, grant = two_devices(browser, server)
    assert api(server, "/api/me", token=grant["access_token"])[0] == 200
    other = next(row for row in rows(driver) if "This device" not in row.text)
    other.find_element(By.CSS_SELECTOR, "button").click()
    # Issue 36, point 10: it asks first; Cancel would go back to Home.
    wait_for(driver, lambda d: d.find_elements(By.ID, "confirm-form"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Are you sure?"
    assert el(driver, "notice").text.startswith("Sign out ") and el(driver, "notice").text.endswith("? It will need to sign in again.")
    assert el(driver, "cancel-link").get_attribute("href").endswith("/home")
    el(driver, "submit").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "device-notice"))
    assert el(driver, "device-notice").text == "That device was signed out."
    remaining = [row.find_element(By.CLASS_NAME, "device-name").text for row in rows(driver)]
    assert len(remaining) == 1 and remaining[0].endswith(" · This device"), remaining
    status, body = api(server, "/api/me", token=grant["access_token"])
    assert status == 401, body
    status, body = api(server, "/api/auth/refresh", "POST", {"refresh_token": grant["refresh_token"]})
    assert (status, body["error"]) == (401, "session_revoked")


def test_I24_signing_this_browser_out_from_its_own_row_returns_to_the_login(browser, server):
    driver, grant = two_devices(browser, server)
    mine = next(row for row in rows(driver) if "This device" in row.text)
    mine.find_element(By.CSS_SELECTOR, "button").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "confirm-form"))
    el(driver, "submit").click()
    wait_for(driver, lambda d: "/login" in d.current_url and d.find_elements(By.ID, "email"))
    driver.get(server.url + "/home")
    wait_for(driver, lambda d: "/login" in d.current_url)
    # The other client is untouched.
    assert api(server, "/api/me", token=grant["access_token"])[0] == 200


def test_I36_cancel_on_the_confirmation_keeps_the_device_signed_in_without_javascript(sized, server):
    """Point 10: "Sign out" a device acted without asking; now it asks, with and without JavaScript."""
    driver, grant = two_devices(sized, server, javascript=False)
    other = next(row for row in rows(driver) if "This device" not in row.text)
    other.find_element(By.CSS_SELECTOR, "button").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "confirm-form"))
    el(driver, "cancel-link").click()
    wait_for(driver, lambda d: d.current_url.endswith("/home"))
    assert len(rows(driver)) == 2
    assert api(server, "/api/me", token=grant["access_token"])[0] == 200
