"""Issue 9's throttling as each client meets it: the web screen's countdown in Chromium (with
and without JavaScript), the official supabase-auth client, and the gql client.

Each test gets a server of its own with small limits: two attempts per address in a window of
a few seconds, so the third is refused with 429 and a Retry-After the browser counts down."""
import re

import pytest
from gql.transport.exceptions import TransportQueryError
from selenium.webdriver.common.by import By

from conftest import EMAIL, PASSWORD, Server
from pages import banner_text, el, open_login, post_and_wait, type_into, wait_for
from test_graphql_client import LOGIN, client as graphql_client
from test_supabase_client import api_error, client as supabase_client

WINDOW = 6
TIGHT = ("--address-limit", "2", "--address-window", str(WINDOW))


@pytest.fixture
def tight_server():
    server = Server(limits=TIGHT)
    yield server
    server.close()


def attempt(driver, password):
    type_into(driver, "password", password)
    el(driver, "submit").click()


def test_S004_throttledScreenCountsDownWithTheButtonDisabledThenReenables(browser, tight_server):
    driver = open_login(browser(), tight_server)
    type_into(driver, "email", EMAIL)
    for _ in range(2):
        attempt(driver, "wrong-password")
        wait_for(driver, lambda d: banner_text(d) == "Invalid email or password")
    attempt(driver, PASSWORD)
    wait_for(driver, lambda d: (banner_text(d) or "").startswith("Too many attempts. Please try again in"))
    # Issue 26: the sentence names the real, short wait in words, and is what a screen reader hears.
    sentence = banner_text(driver)
    assert re.fullmatch(r"Too many attempts\. Please try again in [1-6] seconds?\.", sentence), sentence
    wait_for(driver, lambda d: el(d, "announcer").get_attribute("textContent") == sentence)
    submit, countdown = el(driver, "submit"), el(driver, "retry-countdown")
    assert not submit.is_enabled(), "the button stays disabled while the countdown runs"
    assert countdown.is_displayed() and countdown.text.startswith("Try again in 0:0")
    assert countdown.get_attribute("aria-live") is None, "ticks are not announced"
    wait_for(driver, lambda d: el(d, "submit").is_enabled(), timeout=WINDOW + 5)
    assert not el(driver, "retry-countdown").is_displayed()
    wait_for(driver, lambda d: el(d, "announcer").get_attribute("textContent") == "You can try again now. Log In is enabled again.")
    assert el(driver, "password").get_attribute("value") == PASSWORD, "a 429 loses nothing the user typed"
    el(driver, "submit").click()
    wait_for(driver, lambda d: d.current_url.endswith("/home"))


def test_S004_throttledPageWithoutJavaScriptShowsTheMessage(browser, tight_server):
    driver = open_login(browser(javascript=False), tight_server)
    type_into(driver, "email", EMAIL)  # the server keeps it in the re-rendered form
    for _ in range(3):
        type_into(driver, "password", "wrong-password")
        post_and_wait(driver)
    assert banner_text(driver).startswith("Too many attempts. Please try again in")
    assert int(el(driver, "login-form").get_attribute("data-retry-after")) <= WINDOW


def test_supabaseClientGetsOverRequestRateLimit():
    server = Server("003-peer-mentor", limits=TIGHT)
    try:
        c = supabase_client(server)
        for _ in range(2):
            assert api_error(lambda: c.sign_in_with_password({"email": EMAIL, "password": "wrong"})).code == "invalid_credentials"
        error = api_error(lambda: c.sign_in_with_password({"email": EMAIL, "password": PASSWORD}))
        assert error.status == 429 and error.code == "over_request_rate_limit"
    finally:
        server.close()


def test_gqlClientGetsRateLimitedWithRetryAfter():
    server = Server("001-projects", limits=TIGHT)
    try:
        for _ in range(2):
            with pytest.raises(TransportQueryError) as raised:
                graphql_client(server).execute(LOGIN, variable_values={"email": EMAIL, "password": "wrong"})
            assert raised.value.errors[0]["extensions"]["code"] == "INVALID_CREDENTIALS"
        # The answer is HTTP 429 with a GraphQL body; gql reads the body's error.
        with pytest.raises(TransportQueryError) as raised:
            graphql_client(server).execute(LOGIN, variable_values={"email": EMAIL, "password": PASSWORD})
        extensions = raised.value.errors[0]["extensions"]
        assert extensions["code"] == "RATE_LIMITED"
        assert 1 <= extensions["retryAfter"] <= WINDOW
    finally:
        server.close()
