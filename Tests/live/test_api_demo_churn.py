"""Churn on cue: POST /api/demo/churn edits and deletes items now, and the editsPerMinute and
deletesPerMinute knobs (flags, environment, PATCH /api/demo) do it at a rate."""
from pulldownkit.client import call, get, post
from pulldownkit.events import Stream
from pulldownkit.waiting import wait_until


def churn(server, body=None, headers=None):
    return call(server, "POST", "/api/demo/churn", json=body, headers=headers)


def changed_since(server, since):
    reply = get(server, f"/api/changes?since={since}&limit=1000")
    assert reply.status == 200, reply
    return reply.json()["changed"]


def test_churn_edits_and_deletes_the_items_it_says_it_did(start_server):
    server = start_server(seed="60")
    before = {item["id"]: item for item in get(server, "/api/items?limit=100").json()["items"]}
    reply = churn(server, {"edits": 3, "deletes": 1})
    assert reply.status == 200, reply
    assert reply.header("Cache-Control") == "no-store"
    answer = reply.json()
    kinds = [change["type"] for change in answer["changed"]]
    assert sorted(kinds) == ["deleted", "updated", "updated", "updated"]
    assert [change["sequence"] for change in answer["changed"]] == list(range(61, 65)), "oldest first"
    assert answer["changes"] == 64 and changed_since(server, 60) == answer["changed"], "as GET /api/changes lists them"
    for change in answer["changed"]:
        if change["type"] == "deleted":
            assert get(server, f"/api/items/{change['id']}").status == 410
            continue
        item, old = change["item"], before[change["item"]["id"]]
        assert item["version"] == 2 and item["editedAt"] and get(server, f"/api/items/{item['id']}").json() == item
        # What a real edit changes: the title reworded, a picture swapped, or the likes moved.
        moved = [name for name in ("title", "image", "likes") if item.get(name) != old.get(name)]
        assert moved and set(item) - {"title", "image", "likes", "version", "editedAt"} <= set(old), (old, item)


def test_an_empty_body_is_one_edit_and_bad_counts_are_named(start_server):
    server = start_server(seed="5")
    assert [change["type"] for change in churn(server).json()["changed"]] == ["updated"]
    refused = churn(server, {"edits": 101, "deletes": -1, "moves": 1})
    assert refused.status == 400
    assert sorted(param["name"] for param in refused.json()["invalid_params"]) == ["deletes", "edits", "moves"]
    assert churn(server, {"edits": 0, "deletes": 0}).json()["changed"] == []
    assert churn(start_server(seed="0", db=":memory:"), {"edits": 3}).json()["changed"] == [], "an empty feed has nothing to change"


def test_more_deletions_than_items_delete_them_all_and_no_more(start_server):
    server = start_server(seed="4")
    answer = churn(server, {"deletes": 10}).json()
    assert sorted(change["id"] for change in answer["changed"]) == [1, 2, 3, 4]
    assert get(server, "/api/items").json()["items"] == []


def test_the_knobs_make_edits_and_deletions_at_a_rate_and_stop_at_zero(start_server):
    server = start_server(seed="200")
    knobs = call(server, "PATCH", "/api/demo", json={"editsPerMinute": 1200, "deletesPerMinute": 600},
                 headers={"Content-Type": "application/merge-patch+json"}).json()
    assert (knobs["editsPerMinute"], knobs["deletesPerMinute"]) == (1200, 600)
    stream = Stream(server)
    try:
        # Pushed as they happen, beside everything else.
        assert stream.next_named("updated", "deleted").name in {"updated", "deleted"}
        changes = wait_until(lambda: [c for c in changed_since(server, 200)] if len(changed_since(server, 200)) >= 12 else None)
        assert {change["type"] for change in changes} == {"updated", "deleted"}
    finally:
        stream.close()
    call(server, "PATCH", "/api/demo", json={"editsPerMinute": 0, "deletesPerMinute": None},
         headers={"Content-Type": "application/merge-patch+json"})
    # Stopped: a post takes the next number, with no change between.
    sequence = get(server, "/api/items?limit=1").json()["changes"]
    assert post(server, "/api/items", json={"title": "After the churn"}).json()["id"] == sequence + 1


def test_start_up_flags_and_the_environment_turn_churn_on(start_server):
    server = start_server("--edits-per-minute", "600", env={"PULLDOWN_DELETES_PER_MINUTE": "300"}, seed="50")
    knobs = get(server, "/api/demo").json()
    assert (knobs["editsPerMinute"], knobs["deletesPerMinute"]) == (600, 300)
    kinds = wait_until(lambda: {c["type"] for c in changed_since(server, 50)} == {"updated", "deleted"})
    assert kinds


def test_beyond_loopback_churn_needs_the_demo_token(start_server):
    server = start_server("--host", "0.0.0.0", "--no-qr", "--demo-token", "secret-token-2", seed="5")
    server.host = "127.0.0.1"
    assert churn(server, {"edits": 1}).status == 401
    assert churn(server, {"edits": 1}, headers={"Authorization": "Bearer secret-token-2"}).status == 200
