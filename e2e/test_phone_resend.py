"""Issue 36, point 9, on UrbanNest's code screen at both phone sizes (`sized`): a resend is
confirmed, and after "Change number" back to the same number the code already sent stays reachable."""
import re

from pages import el, post_and_wait, wait_for
from phone_pages import DEMO_NATIONAL, PhoneServer, request_code, settled, type_number, visible_text


def test_I36_resend_code_confirms_the_new_code(sized):
    """Point 9: nothing confirmed a resend; the code screen now says "A new code was sent"."""
    server = PhoneServer(phone_limits=("--resend-after", "1", "--phone-address-limit", "1000"))
    try:
        driver = sized()
        request_code(driver, server)
        wait_for(driver, lambda d: el(d, "resend").is_enabled(), timeout=5)
        assert el(driver, "resend").text == "Resend code"
        post_and_wait(driver, "resend")
        assert el(driver, "code-notice").text == "A new code was sent"
        assert len(server.codes()) == 2
    finally:
        server.close()


def test_I36_change_number_back_to_the_same_number_leads_back_to_the_code_already_sent(sized):
    """Point 9: after "Change number" and the same number again, the resend window showed a
    countdown with no way to enter the code already sent."""
    server = PhoneServer(phone_limits=("--phone-address-limit", "1000"))
    try:
        driver = sized()
        code = request_code(driver, server)
        post_and_wait(driver, "change-number")
        settled(driver)
        type_number(driver, DEMO_NATIONAL)
        wait_for(driver, lambda d: el(d, "send").is_enabled())
        el(driver, "send").click()
        wait_for(driver, lambda d: el(d, "enter-code").is_displayed())
        assert re.fullmatch(r"Resend code in (1:00|0:[0-5]\d)", visible_text(driver, "retry-countdown") or "")
        post_and_wait(driver, "enter-code-link")
        assert driver.current_url.endswith("/login/code")
        box = el(driver, "code")
        for key in code:
            box.send_keys(key)
        wait_for(driver, lambda d: "/home" in d.current_url)
    finally:
        server.close()
