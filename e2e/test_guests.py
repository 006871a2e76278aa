"""Issue 39, part 5: guest accounts on PeerMentor's example (its app file lists `anonymous`),
through the official supabase-auth client called with its defaults."""
import base64
import json

from supabase_auth import SyncGoTrueClient

from conftest import EMAIL, PASSWORD

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
