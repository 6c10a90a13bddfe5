"""Sessions: the cookie and X-Session-Id, forged ids, nothing stored by reads, persistence."""
import re

import pytest

from pulldownkit.client import get, post
from pulldownkit.store import sqlite_rows
from test_api_support import with_session

TOKEN = re.compile(r"[0-9a-f]{64}")


def cookie_attributes(set_cookie):
    name_value, *attributes = [part.strip() for part in set_cookie.split(";")]
    parsed = {}
    for attribute in attributes:
        key, _, value = attribute.partition("=")
        parsed[key.lower()] = value
    return name_value, parsed


def test_a_new_session_gets_a_cookie_with_the_right_flags_and_the_id_echoed(server):
    reply = post(server, "/api/refresh")
    session = reply.header("X-Session-Id")
    assert TOKEN.fullmatch(session)
    [set_cookie] = reply.header_all("Set-Cookie")
    name_value, attributes = cookie_attributes(set_cookie)
    assert name_value == f"pulldown_session={session}"
    assert "httponly" in attributes
    assert attributes["samesite"] == "Lax"
    assert attributes["path"] == "/"
    assert int(attributes["max-age"]) >= 30 * 86400


def test_reading_the_session_issues_and_echoes_one(server):
    reply = get(server, "/api/session")
    assert TOKEN.fullmatch(reply.session)
    assert reply.header("Set-Cookie").startswith(f"pulldown_session={reply.session};")


@pytest.mark.parametrize("path", ["/api/items", "/api/items?before=20", "/api/items/5"])
def test_pages_are_the_same_for_everyone_and_carry_no_session(server, path):
    reply = get(server, path)
    assert reply.status == 200
    assert reply.header("X-Session-Id") is None
    assert reply.header("Set-Cookie") is None


def test_a_known_id_in_x_session_id_is_echoed_without_a_new_cookie(server):
    session = post(server, "/api/refresh").session
    reply = get(server, "/api/session", headers=with_session(session))
    assert reply.session == session
    assert reply.header("Set-Cookie") is None
    assert reply.json()["refreshCount"] == 1


def test_a_known_id_in_the_cookie_is_echoed_without_a_new_cookie(server):
    session = post(server, "/api/refresh").session
    reply = get(server, "/api/session", headers={"Cookie": f"theme=dark; pulldown_session={session}"})
    assert reply.session == session
    assert reply.header("Set-Cookie") is None
    assert reply.json()["refreshCount"] == 1


def test_the_header_wins_over_the_cookie_and_a_forged_header_falls_back_to_it(server):
    from_header = post(server, "/api/refresh").session
    from_cookie = post(server, "/api/refresh").session
    cookie = {"Cookie": f"pulldown_session={from_cookie}"}
    assert get(server, "/api/session", headers=with_session(from_header, cookie)).session == from_header
    reply = get(server, "/api/session", headers=with_session("0" * 64, cookie))
    assert reply.session == from_cookie
    assert reply.header("Set-Cookie") is None


def test_a_client_without_cookies_keeps_one_session_through_the_header(server):
    session = post(server, "/api/refresh").session
    for _ in range(3):
        reply = post(server, "/api/refresh", headers=with_session(session))
        assert reply.session == session
    assert get(server, "/api/session", headers=with_session(session)).json()["refreshCount"] == 4


def forgeries(session):
    flipped = session[:-1] + ("0" if session[-1] != "0" else "1")
    return {
        "too short": session[:-2],
        "too long": session + "00",
        "uppercase": session.upper(),
        "not hex": "g" * 64,
        "unsigned": "0123456789abcdef" * 4,
        "signature changed": flipped,
        "id changed": ("1" if session[0] != "1" else "2") + session[1:],
        "empty": "",
    }


@pytest.mark.parametrize("kind", ["too short", "too long", "uppercase", "not hex", "unsigned",
                                  "signature changed", "id changed", "empty"])
def test_a_forged_or_malformed_id_is_replaced_by_a_new_one(server, kind):
    session = post(server, "/api/refresh").session
    forged = forgeries(session)[kind]
    for headers in (with_session(forged), {"Cookie": f"pulldown_session={forged}"}):
        reply = get(server, "/api/session", headers=headers)
        assert reply.session != forged
        assert reply.session != session
        assert TOKEN.fullmatch(reply.session)
        assert reply.header("Set-Cookie").startswith(f"pulldown_session={reply.session};")
        assert reply.json() == {"lastUpdated": None, "lastSeenId": None, "refreshCount": 0}


def test_a_refresh_with_a_forged_id_does_not_touch_the_real_session(server):
    session = post(server, "/api/refresh").session
    reply = post(server, "/api/refresh", headers=with_session(session.upper()))
    assert reply.status == 200
    assert reply.session != session
    assert get(server, "/api/session", headers=with_session(session)).json()["refreshCount"] == 1


def test_gets_without_a_session_store_nothing(start_server, tmp_path):
    db = tmp_path / "reads.sqlite"
    server = start_server(db=db, seed="50")
    issued = []
    for path in ["/api/items", "/api/items?after=3", "/api/session", "/api/items/5", "/api/items?limit=0"]:
        issued.append(get(server, path).session)
    issued = [session for session in issued if session]
    assert len(set(issued)) == len(issued) == 1  # only /api/session issues one
    for session in issued:
        state = get(server, "/api/session", headers=with_session(session)).json()
        assert state == {"lastUpdated": None, "lastSeenId": None, "refreshCount": 0}
    refreshed = post(server, "/api/refresh").session  # the one call that stores a session
    assert server.stop() == 0
    rows = sqlite_rows(db, "SELECT hex(id) FROM sessions")
    assert [row[0].lower() for row in rows] == [refreshed[:32]]


def test_sessions_and_last_updated_survive_a_restart_with_the_same_db(start_server, tmp_path):
    db = tmp_path / "persist.sqlite"
    first = start_server(db=db, seed="50")
    session = post(first, "/api/refresh").session
    post(first, "/api/refresh", headers=with_session(session))
    state = get(first, "/api/session", headers=with_session(session)).json()
    assert state["refreshCount"] == 2 and state["lastUpdated"] is not None
    assert first.stop() == 0

    second = start_server(db=db, seed="50")
    reply = get(second, "/api/session", headers={"Cookie": f"pulldown_session={session}"})
    assert reply.session == session
    assert reply.header("Set-Cookie") is None
    assert reply.json() == state
    assert post(second, "/api/refresh", headers=with_session(session)).json()["items"] == []
