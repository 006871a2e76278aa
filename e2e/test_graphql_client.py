"""Seed 001's backend: the `gql` client from PyPI against the real server's `/graphql`.

The server runs example 001's app file, whose copy says "Invalid email or password".
"""
import json

import httpx
import pytest
from gql import Client, gql
from gql.transport.exceptions import TransportQueryError
from gql.transport.requests import RequestsHTTPTransport

from conftest import EMAIL, PASSWORD, ROOT

# Seed 001's contract, word for word.
LOGIN = gql("""
mutation login($email: String!, $password: String!) {
  login(data: { email: $email, password: $password }) {
    token
    user {
      id
      email
      firstName
      lastName
    }
  }
}
""")
ME = gql("query { me { id email firstName lastName name } }")
COPY_001 = json.loads((ROOT / "examples/001-projects/gatehouse.json").read_text())["login"]["messages"]


def client(server, token=None, fetch_schema=False):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    transport = RequestsHTTPTransport(url=f"{server.url}/graphql", headers=headers, timeout=30)
    return Client(transport=transport, fetch_schema_from_transport=fetch_schema)


def login(server, email=EMAIL, password=PASSWORD):
    return client(server).execute(LOGIN, variable_values={"email": email, "password": password})["login"]


def query_error(call):
    with pytest.raises(TransportQueryError) as raised:
        call()
    return raised.value.errors[0]


def test_FR004_loginMutationWithEmailAndPassword(server001):
    answer = login(server001, email=" USER@example.com")
    assert answer["token"].count(".") == 2
    assert answer["user"]["email"] == EMAIL


def test_FR006_loginReturnsIdEmailFirstNameLastName(server001):
    server001.cli("users", "create", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "King Lovelace",
                  "--password-stdin", stdin="analytical-engine")
    user = login(server001, "ada@example.com", "analytical-engine")["user"]
    assert set(user) == {"id", "email", "firstName", "lastName"}
    assert (user["email"], user["firstName"], user["lastName"]) == ("ada@example.com", "Ada", "King Lovelace")
    me = client(server001, login(server001, "ada@example.com", "analytical-engine")["token"]).execute(ME)["me"]
    assert me["id"] == user["id"] and me["name"] == "Ada King Lovelace"


def test_FR007_meQueryWithTheBearerToken(server001):
    token = login(server001)["token"]
    me = client(server001, token).execute(ME)["me"]
    assert (me["email"], me["firstName"], me["lastName"], me["name"]) == (EMAIL, "Demo", "User", "Demo User")


def test_me_withoutAToken_isUNAUTHENTICATED(server001):
    error = query_error(lambda: client(server001).execute(ME))
    assert error["extensions"]["code"] == "UNAUTHENTICATED"


def test_FR009_wrongPassword_isINVALID_CREDENTIALSWithTheConfiguredCopy(server001):
    for email in (EMAIL, "nobody@example.com"):
        error = query_error(lambda: login(server001, email, "wrong-password"))
        assert error["extensions"]["code"] == "INVALID_CREDENTIALS"
        assert error["message"] == COPY_001["invalidCredentials"] == "Invalid email or password"
        assert error["path"] == ["login"]


def test_malformedQuery_isAGraphQLErrorNotA500(server001):
    # A document that parses but does not fit the schema, sent by gql without local validation.
    error = query_error(lambda: client(server001).execute(gql("query { login { token } }")))
    assert error["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED"
    # A document that does not parse at all never gets past gql, so it goes by plain HTTP.
    answer = httpx.post(f"{server001.url}/graphql", json={"query": "mutation { login(data: { email: "})
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/json")
    assert answer.json()["errors"][0]["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED"
    assert "Syntax Error" in answer.json()["errors"][0]["message"]
    for body in (b"not json", b"[]", b'{"query": 5}'):
        answer = httpx.post(f"{server001.url}/graphql", content=body, headers={"content-type": "application/json"})
        assert answer.status_code == 400 and answer.json()["errors"][0]["message"]


def test_introspection_letsGqlValidateLocally(server001):
    c = client(server001, fetch_schema=True)
    with c as session:
        assert "login" in session.client.schema.mutation_type.fields
        with pytest.raises(Exception, match="Cannot query field"):
            session.execute(gql("query { nope }"))


def test_US3_1_refreshMutationRotatesTheRefreshToken(server001):
    raw = httpx.post(f"{server001.url}/graphql", json={
        "query": "mutation($e: String!, $p: String!) { login(data: {email: $e, password: $p}) { refreshToken expiresIn } }",
        "variables": {"e": EMAIL, "p": PASSWORD}})
    assert raw.headers["cache-control"] == "no-store"
    first = raw.json()["data"]["login"]
    assert first["expiresIn"] == 900
    refresh = gql("mutation($t: String!) { refresh(data: { refreshToken: $t }) { token refreshToken user { email } } }")
    second = client(server001).execute(refresh, variable_values={"t": first["refreshToken"]})["refresh"]
    assert second["refreshToken"] != first["refreshToken"] and second["user"]["email"] == EMAIL
    error = query_error(lambda: client(server001).execute(refresh, variable_values={"t": "ghr_unknown"}))
    assert error["extensions"]["code"] == "INVALID_REFRESH_TOKEN"


def test_FR015_logoutMutationEndsTheSession(server001):
    token = login(server001)["token"]
    assert client(server001, token).execute(gql("mutation { logout }"))["logout"] is True
    assert query_error(lambda: client(server001, token).execute(ME))["extensions"]["code"] == "UNAUTHENTICATED"


def test_aliasedLogins_areRefusedBeforeAnyHashing(server001):
    document = gql("""mutation { a: login(data: {email: "a@b.co", password: "x"}) { token }
                                 b: login(data: {email: "a@b.co", password: "y"}) { token } }""")
    error = query_error(lambda: client(server001).execute(document))
    assert error["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED"
