"""The screen gallery: every state of every example, light and dark, 390 and 1280 wide, written
to docs/screens/<example>/ with an index page (docs/screens/index.html).

Not part of the test suite (its name has no test_ prefix): `scripts/screenshots.sh` runs it.
Reviewing a change to a screen means looking at its gallery diff."""
import html
import os
import pathlib
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import EMAIL, PASSWORD, ROOT, Server
from pages import blur, el, post_and_wait, type_into, wait_for
from phone_pages import DEMO_NATIONAL, PhoneServer, settled, type_number

OUT = pathlib.Path(os.environ.get("GATEHOUSE_GALLERY_DIR", ROOT / "docs" / "screens"))
SIZES = {"390": (390, 844), "1280": (1280, 800)}


def signed_in(driver, server):
    driver.get(server.url + "/login")
    type_into(driver, "email", EMAIL)
    type_into(driver, "password", PASSWORD)
    el(driver, "submit").click()
    wait_for(driver, lambda d: "/home" in d.current_url)


def login_errors(driver, server):
    driver.get(server.url + "/login")
    type_into(driver, "email", "not-an-address")
    type_into(driver, "password", "x")
    blur(driver)


def signup_errors(driver, server):
    driver.get(server.url + "/signup")
    type_into(driver, "email", "not-an-address")
    type_into(driver, "password", "short")
    blur(driver)


def check_email(driver, server):
    driver.get(server.url + "/signup")
    type_into(driver, "name", "Gallery Person")
    type_into(driver, "email", f"gallery.{time.time_ns()}@example.com")
    type_into(driver, "password", "a long and quiet river")
    post_and_wait(driver)


def confirm_sign_out(driver, server):
    signed_in(driver, server)
    driver.find_element(By.CSS_SELECTOR, "#device-list button").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "confirm-form"))


def phone_valid(driver, server):
    driver.get(server.url + "/login")
    settled(driver)
    type_number(driver, DEMO_NATIONAL)


def phone_invalid(driver, server):
    driver.get(server.url + "/login")
    settled(driver)
    type_number(driver, "12345 67890").send_keys("\n")
    wait_for(driver, lambda d: el(d, "phone-error").is_displayed())


def code(driver, server):
    phone_valid(driver, server)
    wait_for(driver, lambda d: el(d, "send").is_enabled())
    el(driver, "send").click()
    wait_for(driver, lambda d: d.current_url.endswith("/login/code"))


def page(path):
    return lambda driver, server: driver.get(server.url + path)


PASSWORD_STATES = {"login": page("/login"), "login-errors": login_errors, "home": signed_in, "confirm-sign-out": confirm_sign_out}
STATES = {
    "000-generic": PASSWORD_STATES,
    "001-projects": PASSWORD_STATES,
    "002-peated": {**PASSWORD_STATES, "signup": page("/signup"), "signup-errors": signup_errors, "check-email": check_email,
                   "forgot": page("/forgot-password"), "reset": page("/reset-password?token=ghm_example"),
                   "verify-code": page("/verify-email")},
    "003-peer-mentor": PASSWORD_STATES,
    "004-urbannest": {"phone": page("/login"), "phone-valid": phone_valid, "phone-invalid": phone_invalid,
                      "register": page("/register"), "code": code},
}


@pytest.fixture(scope="module", params=list(STATES))
def example(request):
    if request.param == "004-urbannest":
        server = PhoneServer()
    else:
        server = Server(request.param)  # with the demo account (EMAIL, PASSWORD)
    server.example = request.param
    yield server
    server.close()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_gallery(browser, example, theme, size):
    width, height = SIZES[size]
    folder = OUT / example.example
    folder.mkdir(parents=True, exist_ok=True)
    for state, reach in STATES[example.example].items():
        driver = browser(width=width, height=height, dark=theme == "dark", reduced_motion=True)
        reach(driver, example)
        settled(driver)
        driver.execute_script("document.getAnimations().forEach((a) => { a.pause(); a.currentTime = 0; });")
        assert driver.save_screenshot(str(folder / f"{state}-{theme}-{size}.png"))
        driver.quit()


def test_index():
    """docs/screens/index.html: one section per example, one row per state."""
    rows = []
    for example, states in STATES.items():
        rows.append(f"<h2>{html.escape(example)}</h2>")
        for state in states:
            cells = "".join(
                f'<figure><img loading="lazy" src="{example}/{state}-{theme}-{size}.png" alt="{example} {state}, {theme}, {size} px">'
                f"<figcaption>{theme}, {size} px</figcaption></figure>"
                for size in SIZES for theme in ("light", "dark"))
            rows.append(f'<section><h3>{html.escape(state)}</h3><div class="row">{cells}</div></section>')
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "index.html").write_text(
        "<!doctype html><meta charset=utf-8><title>Gatehouse screen gallery</title>"
        "<style>body{font-family:system-ui;margin:2rem}.row{display:flex;gap:1rem;align-items:flex-start;overflow-x:auto}"
        "figure{margin:0}img{max-height:420px;border:1px solid #ccc}</style>"
        "<h1>Gatehouse screen gallery</h1><p>Written by <code>scripts/screenshots.sh</code>: every state of every example, "
        "light and dark, 390 and 1280 px wide.</p>" + "\n".join(rows) + "\n")
