"""The shared validation vectors (testdata/validation-vectors.json, testdata/phone-vectors.json)
on the real page.

LoginCoreTests/ValidationVectorTests and GatehouseServerTests/PhoneVectorTests check the same files
against the Swift rules and libphonenumber, so the page, LoginCore and the server cannot drift apart."""
import json

import phonenumbers
import pytest
from conftest import ROOT, vectors
from pages import blur, el, error_text, open_login
from phone_pages import open_phone, server004  # noqa: F401

PHONE_VECTORS = json.loads((ROOT / "testdata" / "phone-vectors.json").read_text())["vectors"]


@pytest.mark.parametrize("vector", vectors(), ids=lambda v: f"{v['config']}-{v['field']}-{v['value'][:12]!r}")
def test_page_agrees_with_the_shared_vectors(browser, server, server003, vector):
    target = server003 if vector["config"] == "003-peer-mentor" else server
    driver = open_login(browser(), target)
    field = el(driver, vector["field"])
    field.click()
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", field, vector["value"])
    blur(driver)
    assert error_text(driver, vector["field"]) == vector["message"]


@pytest.mark.parametrize("vector", [v for v in PHONE_VECTORS if v["region"] == "IN"], ids=lambda v: v["typed"])
def test_I36_the_phone_page_keeps_the_vectors_digits_and_ticks_only_what_libphonenumber_accepts(sized, server004, vector):
    """UrbanNest's field (India), typed key by key: the digits the field keeps and its tick match
    the vector, whose verdict is Python's phonenumbers' too (a second libphonenumber)."""
    driver = open_phone(sized(), server004)
    box = el(driver, "phone")
    box.click()
    for key in vector["typed"]:
        box.send_keys(key)
    kept = "".join(ch for ch in box.get_attribute("value") if ch.isdigit())
    expected = vector["digits"] or "".join(ch for ch in vector["typed"] if ch.isdigit())
    assert kept == expected
    assert ("complete" in el(driver, "phone-field").get_attribute("class")) == vector["valid"]
    assert el(driver, "send").is_enabled() == vector["valid"]
    if vector["digits"]:
        number = phonenumbers.parse("+91" + vector["digits"], "IN")
        oracle = phonenumbers.is_valid_number(number) and phonenumbers.number_type(number) in (
            phonenumbers.PhoneNumberType.MOBILE, phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE)
        assert oracle == vector["valid"]
