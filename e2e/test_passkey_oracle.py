"""Issue 23's oracles: registration and authentication responses built with python-fido2's
builders (every §7 failure case), judged by py_webauthn and by the server; the verdicts must
agree, case by case."""
import base64
import hashlib
import os

import pytest
import requests
from conftest import EMAIL, PASSWORD, Server, free_port
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from fido2.cose import ES256, RS256
from fido2.webauthn import AttestationObject, AttestedCredentialData, AuthenticatorData, CollectedClientData
from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers.structs import COSEAlgorithmIdentifier

FLAG = AuthenticatorData.FLAG


def b64(data):
    return base64.urlsafe_b64encode(bytes(data)).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@pytest.fixture(scope="module")
def rp():
    port = free_port()
    server = Server("000-generic", extra=("--public-url", f"http://localhost:{port}"), port=port)
    yield server
    server.close()


class Key:
    """A credential's key pair in python-fido2's COSE form."""

    def __init__(self, algorithm):
        self.algorithm = algorithm
        if algorithm == "ES256":
            self.private = ec.generate_private_key(ec.SECP256R1())
            self.cose = ES256.from_cryptography_key(self.private.public_key())
        else:
            self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            self.cose = RS256.from_cryptography_key(self.private.public_key())

    def sign(self, data):
        if self.algorithm == "ES256":
            return self.private.sign(data, ec.ECDSA(hashes.SHA256()))
        return self.private.sign(data, padding.PKCS1v15(), hashes.SHA256())


def registration(options, origin, key, *, type_="webauthn.create", flags=FLAG.UP | FLAG.UV | FLAG.AT, rp_id=None,
                 fmt="none", corrupt=False, credential_id=None):
    """A registration response for the server's options, bent as the case says."""
    challenge = unb64(options["challenge"])
    credential_id = credential_id or os.urandom(16)
    attested = AttestedCredentialData.create(b"\0" * 16, credential_id, key.cose)
    auth_data = AuthenticatorData.create(hashlib.sha256((rp_id or options["rp"]["id"]).encode()).digest(), flags, 0, attested)
    client = CollectedClientData.create(type_, challenge, origin)
    statement = {}
    if fmt == "packed":
        signature = bytearray(key.sign(bytes(auth_data) + client.hash))
        if corrupt:
            signature[-1] ^= 1
        statement = {"alg": key.cose.ALGORITHM, "sig": bytes(signature)}
    elif fmt == "fido-u2f":
        statement = {"sig": b"\0" * 8, "x5c": [b"\0" * 8]}
    attestation = AttestationObject.create(fmt, auth_data, statement)
    return {"id": b64(credential_id), "rawId": b64(credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64(bytes(client)), "attestationObject": b64(bytes(attestation))}}


def assertion(options, origin, key, credential_id, handle, *, type_="webauthn.get", flags=FLAG.UP | FLAG.UV, rp_id=None,
              counter=1, corrupt=False):
    challenge = unb64(options["challenge"])
    auth_data = AuthenticatorData.create(hashlib.sha256((rp_id or options["rpId"]).encode()).digest(), flags, counter)
    client = CollectedClientData.create(type_, challenge, origin)
    signature = bytearray(key.sign(bytes(auth_data) + client.hash))
    if corrupt:
        signature[-1] ^= 1
    return {"id": b64(credential_id), "rawId": b64(credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64(bytes(client)), "authenticatorData": b64(bytes(auth_data)),
                         "signature": b64(bytes(signature)), "userHandle": handle}}


def oracle_accepts(check):
    try:
        check()
        return True
    except Exception:  # py_webauthn raises its own errors for every refusal
        return False


def token(rp):
    return requests.post(rp.url + "/api/auth/login", json={"email": EMAIL, "password": PASSWORD}).json()["access_token"]


REGISTRATIONS = {
    "honest ES256": {},
    "honest RS256": {"algorithm": "RS256"},
    "packed self-attestation": {"fmt": "packed"},
    "packed self-attestation, RS256": {"fmt": "packed", "algorithm": "RS256"},
    "packed with a bad signature": {"fmt": "packed", "corrupt": True},
    "fido-u2f": {"fmt": "fido-u2f"},
    "wrong type": {"type_": "webauthn.get"},
    "wrong origin": {"origin": "http://evil.localhost"},
    "wrong rpIdHash": {"rp_id": "example.com"},
    "no user presence": {"flags": FLAG.UV | FLAG.AT},
    "no user verification": {"flags": FLAG.UP | FLAG.AT},
}


@pytest.mark.parametrize("case", REGISTRATIONS)
def test_P23_oracle_registration_verdicts_match_py_webauthn(rp, case):
    bend = dict(REGISTRATIONS[case])
    key = Key(bend.pop("algorithm", "ES256"))
    origin = bend.pop("origin", rp.url)
    bearer = {"Authorization": "Bearer " + token(rp)}
    options = requests.post(rp.url + "/api/auth/passkeys/registration/options", headers=bearer).json()["options"]
    credential = registration(options, origin, key, **bend)
    oracle = oracle_accepts(lambda: verify_registration_response(
        credential=credential, expected_challenge=unb64(options["challenge"]), expected_origin=rp.url,
        expected_rp_id="localhost", require_user_verification=True,
        supported_pub_key_algs=[COSEAlgorithmIdentifier.ECDSA_SHA_256, COSEAlgorithmIdentifier.RSASSA_PKCS1_v1_5_SHA_256]))
    answer = requests.post(rp.url + "/api/auth/passkeys/registration/verify", headers=bearer, json={"credential": credential})
    assert (answer.status_code == 201) == oracle, f"{case}: server {answer.status_code} {answer.text}, py_webauthn {'accepts' if oracle else 'refuses'}"
    if not oracle:
        assert answer.status_code == 400 and answer.json()["error"] == "passkey_rejected"


AUTHENTICATIONS = {
    "honest": {},
    "bad signature": {"corrupt": True},
    "no user verification": {"flags": FLAG.UP},
    "no user presence": {"flags": FLAG.UV},
    "wrong origin": {"origin": "https://localhost"},
    "wrong rpIdHash": {"rp_id": "other.localhost"},
    "wrong type": {"type_": "webauthn.create"},
    "counter went back": {"counter": 3},
}


@pytest.mark.parametrize("algorithm", ["ES256", "RS256"])
@pytest.mark.parametrize("case", AUTHENTICATIONS)
def test_P23_oracle_authentication_verdicts_match_py_webauthn(rp, case, algorithm):
    bend = dict(AUTHENTICATIONS[case])
    key = Key(algorithm)
    bearer = {"Authorization": "Bearer " + token(rp)}
    creation = requests.post(rp.url + "/api/auth/passkeys/registration/options", headers=bearer).json()["options"]
    credential_id = os.urandom(16)
    added = requests.post(rp.url + "/api/auth/passkeys/registration/verify", headers=bearer,
                          json={"credential": registration(creation, rp.url, key, credential_id=credential_id)})
    assert added.status_code == 201, added.text
    stored_count = 0
    if case == "counter went back":
        # A first sign-in at counter 5; the case then presents 3.
        first = requests.post(rp.url + "/api/auth/passkeys/authentication/options").json()["options"]
        signed = requests.post(rp.url + "/api/auth/passkeys/authentication/verify",
                               json={"credential": assertion(first, rp.url, key, credential_id, creation["user"]["id"], counter=5)})
        assert signed.status_code == 200, signed.text
        stored_count = 5
    options = requests.post(rp.url + "/api/auth/passkeys/authentication/options").json()["options"]
    origin = bend.pop("origin", rp.url)
    response = assertion(options, origin, key, credential_id, creation["user"]["id"], **bend)
    oracle = oracle_accepts(lambda: verify_authentication_response(
        credential=response, expected_challenge=unb64(options["challenge"]), expected_rp_id="localhost", expected_origin=rp.url,
        credential_public_key=bytes(_cbor(key.cose)), credential_current_sign_count=stored_count, require_user_verification=True))
    answer = requests.post(rp.url + "/api/auth/passkeys/authentication/verify", json={"credential": response})
    assert (answer.status_code == 200) == oracle, f"{case}: server {answer.status_code} {answer.text}, py_webauthn {'accepts' if oracle else 'refuses'}"
    if not oracle:
        assert answer.json()["error"] == "passkey_rejected"


def _cbor(cose):
    from fido2 import cbor
    return cbor.encode(dict(cose))
