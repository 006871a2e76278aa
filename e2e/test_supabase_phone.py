"""Seed 004 through Supabase Auth: the official `supabase-auth` client's `sign_in_with_otp` and
`verify_otp` against the real server running UrbanNest's app file with an anon key."""
import pytest
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from phone_pages import DEMO_PHONE, PhoneServer

KEY = "urbannest-test-anon-key"


@pytest.fixture(scope="module")
def supa004():
    server = PhoneServer(extra=("--anon-key", KEY))
    yield server
    server.close()


def client(server):
    return SyncGoTrueClient(url=f"{server.url}/auth/v1", headers={"apikey": KEY}, auto_refresh_token=False, persist_session=False)


def api_error(call):
    with pytest.raises(AuthApiError) as raised:
        call()
    return raised.value


def test_S004_supabase_sign_in_with_otp_and_verify_otp_open_a_session(supa004):
    c = client(supa004)
    before = len(supa004.codes())
    c.sign_in_with_otp({"phone": DEMO_PHONE, "options": {"should_create_user": False}})
    code = supa004.latest_code(after=before)
    response = c.verify_otp({"phone": DEMO_PHONE, "token": code, "type": "sms"})
    assert response.session.access_token.count(".") == 2
    assert response.session.refresh_token.startswith("ghr_")
    assert response.user.user_metadata["full_name"] == "Demo User"
    assert c.get_user(response.session.access_token).user.id == response.user.id


def test_S004_supabase_wrong_or_used_code_is_otp_expired(supa004):
    c = client(supa004)
    before = len(supa004.codes())
    c.sign_in_with_otp({"phone": DEMO_PHONE, "options": {"should_create_user": False}})
    code = supa004.latest_code(after=before)
    error = api_error(lambda: c.verify_otp({"phone": DEMO_PHONE, "token": "000000" if code != "000000" else "111111", "type": "sms"}))
    assert (error.status, error.code) == (403, "otp_expired")
    c.verify_otp({"phone": DEMO_PHONE, "token": code, "type": "sms"})
    error = api_error(lambda: c.verify_otp({"phone": DEMO_PHONE, "token": code, "type": "sms"}))
    assert (error.status, error.code) == (403, "otp_expired")


def test_S004_supabase_unknown_number_without_create_user_is_otp_disabled(supa004):
    error = api_error(lambda: client(supa004).sign_in_with_otp({"phone": "+919123456789", "options": {"should_create_user": False}}))
    assert (error.status, error.code) == (400, "otp_disabled")


def test_S004_supabase_create_user_registers_a_new_number(supa004):
    c = client(supa004)
    c.sign_in_with_otp({"phone": "+919000054321"})
    response = c.verify_otp({"phone": "+919000054321", "token": supa004.latest_code("+919000054321"), "type": "sms"})
    assert response.session is not None
    assert "+919000054321" in supa004.cli("users", "list").stdout


def test_S004_supabase_sends_are_limited_with_over_sms_send_rate_limit():
    server = PhoneServer(phone_limits=("--phone-address-limit", "1000"), extra=("--anon-key", KEY))
    try:
        c = client(server)
        c.sign_in_with_otp({"phone": DEMO_PHONE, "options": {"should_create_user": False}})
        error = api_error(lambda: c.sign_in_with_otp({"phone": DEMO_PHONE, "options": {"should_create_user": False}}))
        assert (error.status, error.code) == (429, "over_sms_send_rate_limit")
    finally:
        server.close()
