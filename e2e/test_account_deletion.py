"""Issue 39, part 3 in real Chromium at 375×667: Home's "Delete account", its confirmation
(what goes, the password), light and dark with axe-core, with and without JavaScript, and the
confirmation mail; and the official supabase-auth client keeping its admin delete."""
from selenium.webdriver.common.by import By

from account_pages import mail_count, mails, peated  # noqa: F401
from pages import el, open_login, post_and_wait, type_into, wait_for
from test_accessibility import axe_violations


def signed_in(driver, server, email, password):
    open_login(driver, server)
    type_into(driver, "email", email)
    type_into(driver, "password", password)
    post_and_wait(driver)
    wait_for(driver, lambda d: "/home" in d.current_url)


def test_DA_W1_home_deletes_the_account_after_its_confirmation_and_the_password(browser, peated, axe_source):
    peated.create_user("leaving.web@example.com", "Lee Ving", "a long and quiet river")
    driver = browser()
    signed_in(driver, peated, "leaving.web@example.com", "a long and quiet river")
    delete = el(driver, "delete-account")
    assert delete.text == "Delete account"
    post_and_wait(driver, "delete-account")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Delete your account?"
    assert el(driver, "notice").text == ("This deletes your Peated account, its sign-in methods, passkeys and two-step verification, "
                                         "and signs out every device. It can't be undone.")
    assert el(driver, "submit").text == "Delete my account" and el(driver, "cancel-link").text == "Cancel"
    for theme in ("light", "dark"):
        if theme == "dark":
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        assert axe_violations(driver, axe_source) == [], theme
    type_into(driver, "password", "not the password")
    post_and_wait(driver)
    assert el(driver, "password-error").text == "That password isn't right"
    before = mail_count(peated)
    type_into(driver, "password", "a long and quiet river")
    post_and_wait(driver)
    assert driver.find_element(By.TAG_NAME, "h1").text == "Account deleted"
    assert el(driver, "notice").text == "Your Peated account was deleted. We sent a confirmation to your email."
    mail = mails(peated, before + 1)[-1]
    assert mail["to"] == "leaving.web@example.com" and mail["subject"] == "Your Peated account was deleted"
    driver.get(peated.url + "/home")
    wait_for(driver, lambda d: "/login" in d.current_url)
    type_into(driver, "email", "leaving.web@example.com")
    type_into(driver, "password", "a long and quiet river")
    el(driver, "submit").click()
    wait_for(driver, lambda d: el(d, "banner").is_displayed())


def test_DA_W2_without_javascript_cancel_goes_home_and_the_button_deletes(browser, peated):
    peated.create_user("leaving.nojs@example.com", "No Script", "a long and quiet river")
    driver = browser(javascript=False)
    signed_in(driver, peated, "leaving.nojs@example.com", "a long and quiet river")
    post_and_wait(driver, "delete-account")
    el(driver, "cancel-link").click()
    wait_for(driver, lambda d: d.current_url.endswith("/home"))
    post_and_wait(driver, "delete-account")
    type_into(driver, "password", "a long and quiet river")
    post_and_wait(driver)
    assert driver.find_element(By.TAG_NAME, "h1").text == "Account deleted"
