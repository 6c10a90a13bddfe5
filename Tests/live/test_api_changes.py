"""Items that change: PATCH and DELETE /api/items/{id}, pages that skip deleted items, the
change sequence in pages and refreshes, and GET /api/changes."""
from pulldownkit.client import call, get, post
from test_api_support import with_session

MERGE = {"Content-Type": "application/merge-patch+json"}


def patch(server, item_id, body, headers=None, raw=None):
    return call(server, "PATCH", f"/api/items/{item_id}", body=raw, json=None if raw is not None else body,
                headers={**MERGE, **(headers or {})})


def test_an_edit_is_a_merge_patch_that_answers_the_next_version(server):
    posted = post(server, "/api/items", json={"title": "Original", "body": "Text", "likes": 3,
                                               "image": {"url": "/a.png", "width": 10, "height": 20, "alt": "A"}}).json()
    assert posted["version"] == 1 and posted["editedAt"] is None
    edited = patch(server, posted["id"], {"title": "Reworded", "likes": 4, "image": {"url": "/b.png", "width": 30, "height": 40}})
    assert edited.status == 200, edited
    assert edited.header("Cache-Control") == "no-store"
    item = edited.json()
    assert item["version"] == 2 and item["editedAt"] is not None
    assert (item["title"], item["body"], item["likes"]) == ("Reworded", "Text", 4)
    # A path here goes out absolute, as every picture does.
    assert item["image"] == {"url": f"{server.url}/b.png", "width": 30, "height": 40, "alt": "A"}, "objects merge member by member"
    assert item["createdAt"] == posted["createdAt"] and item["id"] == posted["id"]
    fetched = get(server, f"/api/items/{posted['id']}")
    assert fetched.json() == item
    assert fetched.header("ETag") == edited.header("ETag")
    removed = patch(server, posted["id"], {"image": None, "body": None, "author": None}).json()
    assert "image" not in removed and removed["body"] == "" and removed["author"] == "Anonymous"
    assert removed["version"] == 3
    unchanged = patch(server, posted["id"], {})
    assert unchanged.status == 200 and unchanged.json()["version"] == 3, "nothing to change: no new version"


def test_a_patch_that_would_change_what_the_server_sets_or_remove_the_title_names_the_field(server):
    reply = patch(server, 5, {"id": 9, "createdAt": "2026-01-01T00:00:00Z", "version": 7, "editedAt": None, "title": None})
    assert reply.status == 400
    names = [param["name"] for param in reply.json()["invalid_params"]]
    assert names == ["id", "createdAt", "version", "editedAt", "title"], names
    assert patch(server, 5, {"title": "  "}).status == 400
    assert patch(server, 5, {"image": {"url": "/x.png"}}).json()["invalid_params"][0]["name"] == "image.width"
    assert patch(server, 5, None, raw="[1]").status == 400
    assert get(server, "/api/items/5").json()["version"] == 1, "nothing changed"


def test_if_match_makes_an_edit_or_a_deletion_conditional(server):
    current = get(server, "/api/items/7")
    tag = current.header("ETag")
    assert patch(server, 7, {"title": "First"}, headers={"If-Match": tag}).status == 200
    stale = patch(server, 7, {"title": "Second"}, headers={"If-Match": tag})
    assert stale.status == 412, stale
    assert get(server, "/api/items/7").json()["title"] == "First"
    assert patch(server, 7, {"title": "Any"}, headers={"If-Match": f"W/{tag}"}).status == 412, "weak tags never match"
    assert patch(server, 7, {"title": "Any"}, headers={"If-Match": "*"}).status == 200
    assert call(server, "DELETE", "/api/items/7", headers={"If-Match": tag}).status == 412
    assert call(server, "DELETE", "/api/items/7", headers={"If-Match": get(server, "/api/items/7").header("ETag")}).status == 204


def test_a_deleted_item_leaves_every_page_and_its_url_is_gone_for_good(server):
    first = get(server, "/api/items?limit=5").json()
    feed = first["feed"]
    deleted = call(server, "DELETE", "/api/items/48")
    assert deleted.status == 204 and deleted.body == b""
    page = get(server, "/api/items?limit=5")
    assert [item["id"] for item in page.json()["items"]] == [50, 49, 47, 46], "a short page"
    assert page.json()["hasMore"] and page.json()["next"] == 46
    gone = get(server, f"/api/items/48?feed={feed}")
    assert gone.status == 410
    assert gone.json()["type"] == "tag:pulldown,2026:item-deleted"
    assert gone.header("Cache-Control") == "max-age=31536000, immutable"
    assert get(server, "/api/items/48").header("Cache-Control") == "no-cache"
    assert call(server, "DELETE", "/api/items/48").status == 410
    assert patch(server, 48, {"title": "Back"}).status == 410
    assert call(server, "DELETE", "/api/items/999").status == 404
    # A cursor that names it is a place, and stays one.
    assert [item["id"] for item in get(server, f"/api/items?limit=2&before=48&feed={feed}").json()["items"]] == [47, 46]
    for item_id in (47, 46, 45):
        assert call(server, "DELETE", f"/api/items/{item_id}").status == 204
    empty = get(server, f"/api/items?limit=3&before=48&feed={feed}")
    assert empty.json()["items"] == [] and empty.json()["hasMore"] and empty.json()["next"] == 45
    assert f"before=45&feed={feed}" in empty.header("Link"), "an empty page still says where to go on"


def test_pages_and_refreshes_say_which_changes_they_reflect_and_the_log_lists_what_followed(server):
    page = get(server, "/api/items?limit=3").json()
    assert page["changes"] == 50
    patch(server, 10, {"title": "Ten, edited"})
    call(server, "DELETE", "/api/items/20")
    patch(server, 10, {"title": "Ten, edited again"})
    listed = get(server, f"/api/changes?since={page['changes']}&feed={page['feed']}")
    assert listed.status == 200 and listed.header("Cache-Control") == "no-cache"
    body = listed.json()
    assert [(change["type"], change["sequence"]) for change in body["changed"]] == [("deleted", 52), ("updated", 53)]
    assert body["changed"][1]["item"]["title"] == "Ten, edited again" and body["changed"][0]["id"] == 20
    assert body["changes"] == 53 and not body["hasMore"]
    batch = get(server, f"/api/changes?since=50&limit=1&feed={page['feed']}")
    assert batch.json()["hasMore"] and batch.json()["changes"] == 52
    assert batch.header("Link") == f"<{server.url}/api/changes?since=52&limit=1&feed={page['feed']}>; rel=\"next\""
    assert get(server, "/api/changes?since=53").json()["changed"] == []
    assert get(server, "/api/items?limit=3").json()["changes"] == 53
    assert get(server, "/api/changes").json()["invalid_params"][0]["name"] == "since"
    assert get(server, "/api/changes?since=0&feed=0000000000000000").status == 410


def test_a_refresh_brings_the_changes_since_the_page_it_holds(server):
    page = get(server, "/api/items?limit=10").json()
    patch(server, 45, {"title": "Edited under the reader"})
    call(server, "DELETE", "/api/items/44")
    refreshed = post(server, "/api/refresh", json={"after": 50, "changes": page["changes"]})
    body = refreshed.json()
    assert [(change["type"], change.get("id") or change["item"]["id"]) for change in body["changed"]] == [
        ("updated", 45), ("deleted", 44)]
    assert body["changes"] == 52 and body["items"] == []
    again = post(server, "/api/refresh", json={"after": 50}, headers=with_session(refreshed.session)).json()
    assert again["changed"] == [], "the session's last refresh is where the next one's changes start"
    call(server, "DELETE", "/api/items/43")
    assert [change["id"] for change in post(server, "/api/refresh", headers=with_session(refreshed.session)).json()["changed"]] == [43]


def test_a_since_older_than_the_log_keeps_is_gone(start_server):
    server = start_server("--changes-kept", "2", seed="10")
    for item_id in range(1, 5):
        assert patch(server, item_id, {"title": f"Edited {item_id}"}).status == 200
    expired = get(server, "/api/changes?since=10")
    assert expired.status == 410
    assert expired.json()["type"] == "tag:pulldown,2026:changes-expired"
    assert [change["sequence"] for change in get(server, "/api/changes?since=12").json()["changed"]] == [13, 14]
    stale = post(server, "/api/refresh", json={"after": 10, "changes": 10, "limit": 3}).json()
    assert stale["gap"] and stale["changed"] == [] and [item["id"] for item in stale["items"]] == [10, 9, 8], \
        "too far behind: the newest page, to start over from"


def test_beyond_loopback_editing_and_deleting_need_the_demo_token(start_server):
    server = start_server("--host", "0.0.0.0", "--no-qr", "--demo-token", "secret-token-1", seed="5")
    server.host = "127.0.0.1"
    refused = patch(server, 1, {"title": "Nope"})
    assert refused.status == 401 and refused.header("WWW-Authenticate").startswith("Bearer ")
    assert call(server, "DELETE", "/api/items/1").status == 401
    bearer = {"Authorization": "Bearer secret-token-1"}
    assert patch(server, 1, {"title": "Yes"}, headers=bearer).status == 200
    assert call(server, "DELETE", "/api/items/1", headers=bearer).status == 204
    assert post(server, "/api/items", json={"title": "Posting needs none"}).status == 201
