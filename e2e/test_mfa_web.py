"""Issue 37's second factor on the web screens, in real Chromium, with pyotp (PyPI) as the
authenticator app: set up from Home, sign out, sign in with the password, the challenge page,
a wrong code, the right code, Home; the recovery-code path without JavaScript; axe in every
new state, light and dark, at 320 px and at 200 % text.
"""
import time
import urllib.parse
import uuid

import httpx
import pyotp
import pytest
from selenium.webdriver.common.by import By

from conftest import Server, free_port
from pages import el, post_and_wait, sign_in, type_into, wait_for
from test_accessibility import axe_violations

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def mfa_site():
    # Reached at http://localhost:<port>, its public URL, where passkeys work.
    port = free_port()
    server = Server("003-peer-mentor", extra=("--public-url", f"http://localhost:{port}"), port=port)
    yield server
    server.close()


def account(server):
    email = f"web-{uuid.uuid4().hex[:10]}@example.com"
    server.create_user(email, "Wes Factor", PASSWORD)
    return email


def enrolled_over_rest(server, email):
    """An account with an authenticator app and its recovery codes, set up through the API."""
    token = httpx.post(f"{server.url}/api/auth/login", json={"email": email, "password": PASSWORD}).json()["access_token"]
    enrolment = httpx.post(f"{server.url}/api/auth/mfa/factors", json={}, headers={"Authorization": f"Bearer {token}"}).json()
    totp = pyotp.TOTP(enrolment["secret"])
    verified = httpx.post(f"{server.url}/api/auth/mfa/factors/{enrolment['factor']['id']}/verify", json={"code": totp.now()},
                          headers={"Authorization": f"Bearer {token}"})
    assert verified.status_code == 200, verified.text
    return totp, verified.json()["recovery_codes"]


def path(driver):
    return urllib.parse.urlparse(driver.current_url).path


def no_violations(driver, axe_source, state):
    violations = axe_violations(driver, axe_source)
    assert not violations, f"{state}: " + "; ".join(f"{v['id']}: {v['help']}" for v in violations)
    driver.execute_script("document.documentElement.style.fontSize = '200%'")
    violations = axe_violations(driver, axe_source)
    driver.execute_script("document.documentElement.style.fontSize = ''")
    assert not violations, f"{state} at 200 % text: " + "; ".join(f"{v['id']}: {v['help']}" for v in violations)


def autosubmitted(driver, field, code):
    """Types a code key by key; the page submits it by itself at the sixth digit."""
    old = driver.find_element(By.TAG_NAME, "html")
    type_into(driver, field, code)
    wait_for(driver, lambda d: old != d.find_element(By.TAG_NAME, "html"))
    wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete")


def test_mfa_web_setUpFromHome_signOut_signInAgain_wrongCodeThenRightCode_atPhoneSize(browser, mfa_site):
    email = account(mfa_site)
    driver = browser(width=375, height=667)
    sign_in(driver, mfa_site, email, PASSWORD)
    wait_for(driver, lambda d: path(d) == "/home")
    assert "Protect your account" in el(driver, "two-step-off").text
    post_and_wait(driver, "set-up-two-step")
    assert el(driver, "qr-code").find_element(By.TAG_NAME, "svg").get_attribute("role") == "img"
    groups = el(driver, "secret").text
    assert all(len(group) == 4 for group in groups.split(" ")[:-1]), groups
    totp = pyotp.TOTP(groups.replace(" ", ""))
    assert driver.switch_to.active_element.get_attribute("id") != "code", "nothing is focused for the person before they scan"
    autosubmitted(driver, "code", totp.now())
    codes = [code.text for code in driver.find_elements(By.CSS_SELECTOR, "#recovery-codes code")]
    assert len(codes) == 10 and len(set(codes)) == 10
    assert urllib.parse.unquote(el(driver, "download-codes").get_attribute("href")).endswith("\n".join(codes) + "\n")
    assert el(driver, "copy-codes").is_displayed(), "Copy shows where the page has a clipboard"
    copy, download = el(driver, "copy-codes").rect, el(driver, "download-codes").rect
    assert (copy["y"], copy["height"]) == (download["y"], download["height"]), f"Copy and Download side by side, one size: {copy} {download}"
    el(driver, "codes-done").click()
    wait_for(driver, lambda d: path(d) == "/home")
    assert el(driver, "two-step-on").text == "Two-step verification is on."
    assert el(driver, "codes-left").text == "10 recovery codes left"

    post_and_wait(driver, "sign-out")
    sign_in(driver, mfa_site, email, PASSWORD)
    wait_for(driver, lambda d: path(d) == "/login/mfa")
    assert el(driver, "title").text == "Two-step verification"
    assert driver.switch_to.active_element.get_attribute("id") == "code"
    assert el(driver, "code").get_attribute("autocomplete") == "one-time-code"
    autosubmitted(driver, "code", "000000")
    assert path(driver) == "/login/mfa"
    assert el(driver, "code-error").text == "That code didn't work. Check your authenticator app and try again. 4 tries left"
    driver.get(mfa_site.url + "/home")
    assert path(driver) == "/login/mfa", "Home waits for the second factor"
    autosubmitted(driver, "code", totp.at(time.time() + 30))
    assert path(driver) == "/home"
    assert el(driver, "two-step-on").is_displayed()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_mfa_web_axeFindsNoViolationsInAnyNewState_at320px(browser, mfa_site, axe_source, theme):
    email = account(mfa_site)
    driver = browser(width=320, height=640, dark=theme == "dark")
    sign_in(driver, mfa_site, email, PASSWORD)
    wait_for(driver, lambda d: path(d) == "/home")
    no_violations(driver, axe_source, "home, two-step off")
    post_and_wait(driver, "set-up-two-step")
    no_violations(driver, axe_source, "setup")
    secret = el(driver, "secret").text.replace(" ", "")
    type_into(driver, "code", "12345")
    el(driver, "submit").click()
    wait_for(driver, lambda d: el(d, "code-error").is_displayed())
    no_violations(driver, axe_source, "setup, a short code")
    el(driver, "code").clear()
    autosubmitted(driver, "code", "000000")
    assert el(driver, "code-error").text.startswith("That code didn't work")
    no_violations(driver, axe_source, "setup, wrong code")
    autosubmitted(driver, "code", pyotp.TOTP(secret).now())
    no_violations(driver, axe_source, "recovery codes")
    el(driver, "codes-done").click()
    wait_for(driver, lambda d: path(d) == "/home")
    no_violations(driver, axe_source, "home, two-step on")
    post_and_wait(driver, "sign-out")
    sign_in(driver, mfa_site, email, PASSWORD)
    wait_for(driver, lambda d: path(d) == "/login/mfa")
    no_violations(driver, axe_source, "challenge")
    autosubmitted(driver, "code", "000000")
    no_violations(driver, axe_source, "challenge, wrong code")
    link = el(driver, "use-recovery-code")
    driver.execute_script("arguments[0].scrollIntoView()", link)
    link.click()
    try:
        wait_for(driver, lambda d: "method=recovery" in d.current_url)
    except Exception:
        raise AssertionError(f"still at {driver.current_url}: {driver.find_element(By.TAG_NAME, 'main').text}")
    no_violations(driver, axe_source, "recovery code")


def test_mfa_web_recoveryCodeSignsInOnceWithoutJavaScript_andFiveWrongCodesEndTheChallenge(browser, mfa_site):
    email = account(mfa_site)
    totp, codes = enrolled_over_rest(mfa_site, email)
    driver = browser(javascript=False)
    sign_in(driver, mfa_site, email, PASSWORD)
    wait_for(driver, lambda d: path(d) == "/login/mfa")
    el(driver, "use-recovery-code").click()
    wait_for(driver, lambda d: "method=recovery" in d.current_url)
    type_into(driver, "code", codes[0].upper())
    post_and_wait(driver)
    assert path(driver) == "/home"
    assert el(driver, "codes-left").text == "9 recovery codes left"

    post_and_wait(driver, "sign-out")
    sign_in(driver, mfa_site, email, PASSWORD)
    wait_for(driver, lambda d: path(d) == "/login/mfa")
    for attempt in range(5):
        type_into(driver, "code", "000000")
        post_and_wait(driver)
        if attempt < 4:
            assert el(driver, "code-error").text.endswith(f"{4 - attempt} tries left")
            el(driver, "code").clear()
    assert el(driver, "banner").text == "Too many wrong codes. Please sign in again."
    driver.get(mfa_site.url + "/home")
    assert path(driver) == "/login", "the ended challenge signed the browser out"


def test_mfa_web_aPasskeyCompletesTheStepUpAfterAPassword_withTheVirtualAuthenticator(browser, mfa_site):
    from test_passkeys import arrived, authenticator, sign_out
    email = account(mfa_site)
    totp, _ = enrolled_over_rest(mfa_site, email)
    driver = browser(width=375, height=667)
    authenticator_id = authenticator(driver)
    sign_in(driver, mfa_site, email, PASSWORD)
    wait_for(driver, lambda d: path(d) == "/login/mfa")
    assert not driver.find_elements(By.ID, "use-passkey"), "no passkey yet: not offered"
    autosubmitted(driver, "code", totp.at(time.time() + 30))  # the enrolment used the current step
    wait_for(driver, lambda d: el(d, "biometric-offer").is_displayed())
    el(driver, "offer-accept").click()
    wait_for(driver, lambda d: arrived(d, "passkey=added") and d.find_elements(By.CSS_SELECTOR, ".passkey"))

    sign_out(driver, authenticator_id)
    sign_in(driver, mfa_site, email, PASSWORD)
    wait_for(driver, lambda d: path(d) == "/login/mfa")
    driver.execute_cdp_cmd("WebAuthn.setAutomaticPresenceSimulation", {"authenticatorId": authenticator_id, "enabled": True})
    wait_for(driver, lambda d: el(d, "use-passkey").is_displayed())
    el(driver, "use-passkey").click()
    wait_for(driver, lambda d: arrived(d, mfa_site.url + "/home"))
    assert el(driver, "two-step-on").is_displayed()


def test_mfa_web_requiredSendsAnAccountWithoutAFactorToSetOneUpFirst(browser, tmp_path):
    import json
    from conftest import ROOT
    app = json.loads((ROOT / "examples/003-peer-mentor/gatehouse.json").read_text())
    app["mfa"]["required"] = True
    app["login"]["logo"]["path"] = str(ROOT / "examples/003-peer-mentor/logo.svg")
    config = tmp_path / "gatehouse.json"
    config.write_text(json.dumps(app))
    server = Server(str(config))
    try:
        email = account(server)
        driver = browser(javascript=False)
        sign_in(driver, server, email, PASSWORD)
        wait_for(driver, lambda d: path(d) == "/home/mfa")
        assert el(driver, "title").text == "Set up two-step verification"
        driver.get(server.url + "/home")
        assert path(driver) == "/home/mfa", "Home waits until a factor is set up"
        post_and_wait(driver)
        secret = el(driver, "secret").text.replace(" ", "")
        type_into(driver, "code", pyotp.TOTP(secret).now())
        post_and_wait(driver)
        assert len(driver.find_elements(By.CSS_SELECTOR, "#recovery-codes code")) == 10
        el(driver, "codes-done").click()
        wait_for(driver, lambda d: path(d) == "/home")
        assert el(driver, "two-step-on").is_displayed()
    finally:
        server.close()
