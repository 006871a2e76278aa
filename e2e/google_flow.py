"""Helpers for the Google tests: press the button, act on the provider's page, read the outcome."""
import time

import requests
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from pages import el, open_login, wait_for


def press_google(driver, server, path="/login"):
    """Opens the screen and presses the Google button; returns once the provider's page is up."""
    driver.get(server.url + path)
    wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    el(driver, "google").click()
    wait_for(driver, lambda d: d.current_url.startswith(server.provider.url) or "/login" in d.current_url and "signin=" in d.current_url)


def approve(driver, sub):
    """Signs in at the provider as `sub` (the mock's 'Authorize' form)."""
    box = driver.find_element(By.ID, "subject-input")
    box.clear()
    box.send_keys(sub)
    box.submit()


def deny(driver):
    """Presses the provider's 'Deny access'."""
    driver.find_element(By.XPATH, "//button[contains(., 'Deny')]").click()


def click_and_land(driver, element, server, path, timeout=10):
    """Clicks a control that navigates, waits for the old page to be gone, then for `path`.

    `landed` alone cannot tell a page from the one before it when both are on `path` (Home's
    unlink lands on Home): it could pass on the old page and leave the next read stale.
    """
    old = driver.find_element(By.TAG_NAME, "html")
    element.click()
    wait_for(driver, lambda d: _is_stale(old), timeout)
    return landed(driver, server, path, timeout)


def _is_stale(element):
    try:
        element.tag_name
        return False
    except StaleElementReferenceException:
        return True


def landed(driver, server, path, timeout=10):
    wait_for(driver, lambda d: d.current_url.split("?")[0] == server.url + path, timeout)
    wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    return driver.current_url


def google_sign_in(driver, server, sub):
    press_google(driver, server)
    approve(driver, sub)


def password_tokens(server, email, password):
    response = requests.post(server.url + "/api/auth/login", json={"email": email, "password": password}, timeout=10)
    return response


def visible_text(driver, element_id):
    element = el(driver, element_id)
    return element.text if element.is_displayed() else None
