"""Issue 39, part 5: guest accounts on PeerMentor's example (its app file lists `anonymous`),
through the official supabase-auth client called with its defaults."""
import base64
import json
import pathlib
import time

from supabase_auth import SyncGoTrueClient

from conftest import EMAIL, PASSWORD, ROOT, Server

ANON = "peer-mentor-demo-anon-key"


def claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def test_G01_sign_in_anonymously_makes_a_guest_and_signing_in_from_it_never_merges(server003):
    client = SyncGoTrueClient(url=server003.url + "/auth/v1", headers={"apikey": ANON}, auto_refresh_token=False, persist_session=False)
    guest = client.sign_in_anonymously()
    assert guest.user.is_anonymous and guest.user.identities == [] and guest.session.access_token
    assert claims(guest.session.access_token)["is_anonymous"] is True
    assert [entry["method"] for entry in claims(guest.session.access_token)["amr"]] == ["anonymous"]
    assert client.get_user(guest.session.access_token).user.id == guest.user.id
    refreshed = client.refresh_session(guest.session.refresh_token)
    assert refreshed.user.id == guest.user.id and claims(refreshed.session.access_token)["is_anonymous"] is True
    # Signing in to an existing account from the guest's client: that account, told apart by its id.
    owner = client.sign_in_with_password({"email": EMAIL, "password": PASSWORD})
    assert owner.user.id != guest.user.id and not owner.user.is_anonymous
    assert "is_anonymous" not in claims(owner.session.access_token)
    assert client.sign_in_anonymously().user.id not in (guest.user.id, owner.user.id), "each guest is new"


def test_G02_a_guest_keeps_its_account_with_a_phone_through_update_user_and_verify_otp(tmp_path):
    """UrbanNest's app file with guests on: `update_user({"phone"})` sends a code that
    `verify_otp(type="phone_change")` takes; the number then signs in to the same account."""
    app = json.loads((ROOT / "examples" / "004-urbannest" / "gatehouse.json").read_text())
    app["signIn"]["methods"] = ["phone", "anonymous"]
    app_file = tmp_path / "gatehouse.json"
    app_file.write_text(json.dumps(app))
    outbox = tmp_path / "sms.jsonl"
    server = Server(str(app_file), extra=("--anon-key", "urbannest-guests", "--sms-outbox", str(outbox)))
    try:
        client = SyncGoTrueClient(url=server.url + "/auth/v1", headers={"apikey": "urbannest-guests"}, auto_refresh_token=False,
                                  persist_session=False)
        guest = client.sign_in_anonymously()
        pending = client.update_user({"phone": "+919123456789"})
        assert pending.user.id == guest.user.id and pending.user.is_anonymous
        code = sms_code(outbox, 1)
        kept = client.verify_otp({"phone": "+919123456789", "token": code, "type": "phone_change"})
        assert kept.user.id == guest.user.id and kept.user.phone == "919123456789" and not kept.user.is_anonymous
        client.sign_in_with_otp({"phone": "+919123456789"})
        signed_in = client.verify_otp({"phone": "+919123456789", "token": sms_code(outbox, 2), "type": "sms"})
        assert signed_in.user.id == guest.user.id and "is_anonymous" not in claims(signed_in.session.access_token)
    finally:
        server.close()


def sms_code(outbox, count, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        lines = pathlib.Path(outbox).read_text().splitlines() if pathlib.Path(outbox).exists() else []
        if len(lines) >= count:
            return json.loads(lines[count - 1])["code"]
        time.sleep(0.05)
    raise AssertionError(f"fewer than {count} SMS")
