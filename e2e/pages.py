"""Helpers that act on the login screen the way a person would."""
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.support.expected_conditions import staleness_of
from selenium.webdriver.support.ui import WebDriverWait


def el(driver, element_id):
    return driver.find_element(By.ID, element_id)


def open_login(driver, server):
    driver.get(server.url + "/login")
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    return driver


def type_into(driver, field, text):
    box = el(driver, field)
    box.click()
    box.send_keys(text)
    return box


def blur(driver):
    """Leaves the focused field by tapping the header, as a person on a phone would."""
    driver.find_element(By.TAG_NAME, "h1").click()
    time.sleep(0.1)


def error_text(driver, field):
    box = el(driver, f"{field}-error")
    return box.text if box.is_displayed() else None


def banner_text(driver):
    box = el(driver, "banner")
    return box.text if box.is_displayed() else None


def wait_for(driver, condition, timeout=10):
    # A condition may read an element of the page that a form post is replacing; such a read is
    # retried rather than failing the test. Chromedriver sometimes reports that read as a generic
    # "Node with given id does not belong to the document" instead of a stale element (seen once
    # in CI, in test_P23_not_now_is_remembered_on_this_device): the same replacement, retried too.
    def attempt(d):
        try:
            return condition(d)
        except WebDriverException as error:
            if isinstance(error, StaleElementReferenceException) or "does not belong to the document" in str(error):
                return False
            raise
    try:
        return WebDriverWait(driver, timeout).until(attempt)
    except TimeoutException:
        # Where the browser was when the wait ran out: the first thing to know about a failure.
        try:
            where = f"at {driver.current_url!r}, title {driver.title!r}"
        except WebDriverException as error:
            where = f"and the browser no longer answers ({error.msg})"
        raise TimeoutException(f"waited {timeout} s {where}") from None


def post_and_wait(driver, button_id="submit", timeout=10):
    """Clicks a button that posts the form without JavaScript and waits for the new page."""
    old = driver.find_element(By.TAG_NAME, "html")
    el(driver, button_id).click()
    # While the new document replaces the old one, chromedriver sometimes answers a question
    # about the old node with a generic "unknown error" instead of "stale element"; that is
    # the replacement still under way, so the wait asks again rather than failing.
    WebDriverWait(driver, timeout, ignored_exceptions=(WebDriverException,)).until(staleness_of(old))
    WebDriverWait(driver, timeout).until(lambda d: d.execute_script("return document.readyState") == "complete")


def submit(driver):
    el(driver, "submit").click()


def sign_in(driver, server, email, password):
    open_login(driver, server)
    type_into(driver, "email", email)
    type_into(driver, "password", password)
    submit(driver)


def logins_in_log(server, outcome="Sign-in succeeded"):
    return server.log.count(outcome)


def slow_network(driver, latency_ms=2500):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1})


def offline(driver, value=True):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": value, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def rect(driver, element):
    return driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height];", element)


EMAIL, PASSWORD = "user@example.com", "password123"
STATES = ["empty", "field-errors", "loading", "failure-banner", "home"]


def reach(driver, server, state):
    """Brings the screen into `state`."""
    if state == "home":
        sign_in(driver, server, EMAIL, PASSWORD)
        wait_for(driver, lambda d: d.current_url.endswith("/home"))
        return
    open_login(driver, server)
    if state == "field-errors":
        type_into(driver, "email", "notanemail")
        type_into(driver, "password", "abc")
        blur(driver)
    elif state == "loading":
        type_into(driver, "email", EMAIL)
        type_into(driver, "password", PASSWORD)
        slow_network(driver, 8000)
        submit(driver)
        wait_for(driver, lambda d: el(d, "submit").get_attribute("aria-busy") == "true")
    elif state == "failure-banner":
        type_into(driver, "email", EMAIL)
        type_into(driver, "password", "wrong-password")
        submit(driver)
        wait_for(driver, lambda d: banner_text(d) is not None)



TAB = Keys.TAB
ENTER = Keys.ENTER
