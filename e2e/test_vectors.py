"""The shared validation vectors (testdata/validation-vectors.json) on the real page.

LoginCoreTests/ValidationVectorTests checks the same file against the Swift rules, so the page
and LoginCore cannot drift apart."""
import pytest
from conftest import vectors
from pages import blur, el, error_text, open_login


@pytest.mark.parametrize("vector", vectors(), ids=lambda v: f"{v['config']}-{v['field']}-{v['value'][:12]!r}")
def test_page_agrees_with_the_shared_vectors(browser, server, server003, vector):
    target = server003 if vector["config"] == "003-peer-mentor" else server
    driver = open_login(browser(), target)
    field = el(driver, vector["field"])
    field.click()
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", field, vector["value"])
    blur(driver)
    assert error_text(driver, vector["field"]) == vector["message"]
