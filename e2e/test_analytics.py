"""Seed 004's analytics events in Chromium: what LoginCore reported reaches `window.dataLayer`
(Google Tag Manager's convention) and a `gatehouse:analytics` DOM event, in order, across the
pages of the phone, Google and email flows; none carries personal data; an app file turns
them off."""
import json

import pytest

from conftest import EMAIL, PASSWORD, ROOT, Server
from google_flow import approve, deny, landed, press_google
from google_provider import GoogleServer, provider  # noqa: F401 (the provider fixture)
from pages import el, sign_in, type_into, wait_for
from phone_pages import DEMO_NATIONAL, PhoneServer, open_phone, type_number

# Every page appends what it dispatches to a log that survives navigation (the test's own
# listener, installed before any page script runs).
RECORDER = """
document.addEventListener('gatehouse:analytics', (e) => {
  const log = JSON.parse(sessionStorage.getItem('e2e-analytics') || '[]');
  log.push(e.detail);
  sessionStorage.setItem('e2e-analytics', JSON.stringify(log));
});
"""


def recording(driver):
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    return driver


def log(driver):
    return json.loads(driver.execute_script("return sessionStorage.getItem('e2e-analytics') || '[]'"))


def names(driver):
    return [entry["event"] for entry in log(driver)]


def test_A004_the_phone_flow_reports_seed_004s_events_in_order(browser):
    server = PhoneServer()
    try:
        driver = recording(browser())
        open_phone(driver, server)
        # The demo account's number: login_otp_success, then the code screen.
        type_number(driver, DEMO_NATIONAL)
        wait_for(driver, lambda d: el(d, "send").is_enabled())
        el(driver, "send").click()
        wait_for(driver, lambda d: d.current_url.endswith("/login/code") and d.execute_script("return document.readyState") == "complete")
        wait_for(driver, lambda d: "login_otp_success" in names(d))
        entries = log(driver)
        assert entries == [
            {"event": "screen_view", "screen_name": "login"},
            {"event": "login_phone_started"},
            {"event": "login_otp_requested", "phone_country_code": "+91"},
            {"event": "login_otp_success"},
        ], entries
        # window.dataLayer holds them too, as pushed on this page.
        assert {"event": "login_otp_success"} in driver.execute_script("return window.dataLayer")
        # A number without an account: login_otp_failed with seed 004's error word.
        driver.execute_script("sessionStorage.removeItem('e2e-analytics')")
        open_phone(driver, server)
        type_number(driver, "91234 56789")
        wait_for(driver, lambda d: el(d, "send").is_enabled())
        el(driver, "send").click()
        wait_for(driver, lambda d: "login_otp_failed" in names(d))
        assert log(driver)[-1] == {"event": "login_otp_failed", "error": "account_not_found"}
        text = json.dumps(log(driver))
        for personal in ("98765", "43210", "91234", "56789", "Demo User"):
            assert personal not in text
    finally:
        server.close()


def test_A004_the_google_flow_reports_started_then_success_or_cancelled(browser, provider):  # noqa: F811
    server = GoogleServer(provider, "004-urbannest")
    try:
        provider.put_user("sub-analytics-1", "analytics.one@gmail.com", name="Ann Alytics")
        driver = recording(browser())
        press_google(driver, server)
        approve(driver, "sub-analytics-1")
        landed(driver, server, "/welcome")
        wait_for(driver, lambda d: "login_google_success" in names(d))
        assert log(driver)[-2:] == [{"event": "login_google_started"}, {"event": "login_google_success", "is_new_user": True}]

        driver.delete_all_cookies()
        driver.execute_script("sessionStorage.removeItem('e2e-analytics')")
        press_google(driver, server)
        deny(driver)
        landed(driver, server, "/login")
        wait_for(driver, lambda d: "login_google_cancelled" in names(d))
        # Back on the login page: its screen_view comes between the start and the outcome it shows.
        assert names(driver)[-3:] == ["login_google_started", "screen_view", "login_google_cancelled"], names(driver)
        assert "ann" not in json.dumps(log(driver)).lower()
    finally:
        server.close()


def test_A004_the_email_flow_reports_the_equivalent_events(browser, server):
    driver = recording(browser())
    sign_in(driver, server, EMAIL, "wrong-password")
    wait_for(driver, lambda d: "login_email_failed" in names(d))
    type_into(driver, "password", PASSWORD)
    el(driver, "submit").click()
    wait_for(driver, lambda d: "/home" in d.current_url and "login_email_success" in names(d))
    assert log(driver) == [
        {"event": "screen_view", "screen_name": "login"},
        {"event": "login_email_started"},
        {"event": "login_email_submitted"},
        {"event": "login_email_failed", "error": "invalid_credentials"},
        {"event": "login_email_submitted"},
        {"event": "login_email_success"},
    ], log(driver)
    assert EMAIL not in json.dumps(log(driver))


def test_S13_a_planted_analytics_cookie_reports_nothing(browser, server):
    """Issue 35, point 13: the cookie that carries events to the next page is `__Host-` and
    signed; an unsigned, forged or old-named one plants nothing in `window.dataLayer`."""
    import base64

    def b64(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    planted = b64(json.dumps([{"name": "purchase", "parameters": {"email": "victim@example.com", "event": "purchase"}}]).encode())
    driver = recording(browser())
    driver.get(server.url + "/login")
    for name, value in (("__Host-gatehouse-analytics", planted + "." + b64(bytes(32))),
                        ("__Host-gatehouse-analytics", planted),
                        ("gatehouse_analytics", planted)):
        driver.delete_all_cookies()
        driver.execute_cdp_cmd("Network.setCookie", {
            "name": name, "value": value, "url": server.url + "/", "path": "/", "httpOnly": True,
            "secure": name.startswith("__Host-"),
        })
        driver.execute_script("sessionStorage.removeItem('e2e-analytics')")
        driver.get(server.url + "/login")
        wait_for(driver, lambda d: "screen_view" in names(d))
        pushed = json.dumps(driver.execute_script("return window.dataLayer"))
        assert "purchase" not in names(driver) and "victim" not in pushed, (name, pushed)


def test_A004_an_app_file_with_analytics_false_reports_nothing(browser, tmp_path):
    config = json.loads((ROOT / "examples" / "000-generic" / "gatehouse.json").read_text())
    config.setdefault("login", {})["analytics"] = False
    path = tmp_path / "gatehouse.json"
    path.write_text(json.dumps(config))
    server = Server(str(path))
    try:
        driver = recording(browser())
        sign_in(driver, server, EMAIL, PASSWORD)
        wait_for(driver, lambda d: "/home" in d.current_url)
        assert log(driver) == [] and driver.execute_script("return window.dataLayer") == []
    finally:
        server.close()
