"""--data FILE: the user's own items from a JSON array, an object with `items`, or NDJSON, in one
transaction; the store remembers the file; every bad file is one clear line and changes nothing."""
import hashlib
import json

import pytest

from pulldownkit.client import get, on_server, post
from pulldownkit.events import Stream
from pulldownkit.server import PUBLIC
from test_cli import assert_one_clear_line, run

POSTS = [
    {"title": "Middle", "createdAt": "2026-05-02T10:00:00Z", "likes": 3, "user": {"handle": "@ana"}},
    {"title": "Newest", "createdAt": "2026-05-03T08:30:00+02:00", "tags": ["a", "b"],
     "image": {"url": "https://example.com/p.png", "width": 800, "height": 450, "alt": "A pier"}},
    {"title": "Oldest", "body": "First post", "author": "Ana", "createdAt": "2026-05-01T00:00:00.250Z"},
]


def write(folder, name, text):
    path = folder / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def titles(server):
    return [item["title"] for item in get(server, "/api/items?limit=100").json()["items"]]


def start_with(folder, *args):
    return run("--port", "0", "--quiet", "--no-qr", "--public", str(PUBLIC), "--db", str(folder / "feed.sqlite"), *args)


@pytest.mark.parametrize("shape", ["array", "object", "ndjson"])
def test_every_format_gives_exactly_the_files_items_ordered_by_created_at(start_server, tmp_path, shape):
    text = {"array": json.dumps(POSTS, indent=2), "object": json.dumps({"items": POSTS}),
            "ndjson": "\n".join(json.dumps(p) for p in POSTS) + "\n"}[shape]
    server = start_server("--data", str(write(tmp_path, "posts.json", text)), seed="50")
    items = get(server, "/api/items?limit=100").json()["items"]
    assert [i["title"] for i in items] == ["Newest", "Middle", "Oldest"]
    assert items[0]["createdAt"] == "2026-05-03T06:30:00Z"
    assert items[0]["image"] == POSTS[1]["image"] and items[0]["tags"] == ["a", "b"]
    assert items[1]["likes"] == 3 and items[1]["user"] == {"handle": "@ana"}
    assert items[2]["author"] == "Ana" and items[2]["body"] == "First post"


def test_without_created_at_the_first_entry_is_the_newest(start_server, tmp_path):
    path = write(tmp_path, "posts.ndjson", '{"title": "top"}\n\n{"title": "second"}\n{"title": "third"}\n')
    assert titles(start_server("--data", str(path))) == ["top", "second", "third"]


def test_a_restart_with_the_same_file_keeps_sessions_and_posts(start_server, tmp_path):
    path = write(tmp_path, "posts.json", json.dumps(POSTS))
    db = tmp_path / "kept.sqlite"
    first = start_server("--data", str(path), db=db)
    session = post(first, "/api/refresh").session
    assert post(first, "/api/items", json={"title": "Posted since"}).status == 201
    first.stop()
    again = start_server("--data", str(path), db=db)
    assert titles(again) == ["Posted since", "Newest", "Middle", "Oldest"]
    assert get(again, "/api/session", headers={"X-Session-Id": session}).json()["refreshCount"] == 1


def test_a_first_data_file_replaces_the_untouched_demo_feed(start_server, tmp_path):
    # The README in order: `make run`, then `make run ARGS="--data my-posts.json"`.
    demo = start_server(seed="20", new_items_every="0.2")
    stream = Stream(demo)  # the generator adds demo items while someone watches: still the demo's
    try:
        stream.next_items()
    finally:
        stream.close()
    session = post(demo, "/api/refresh").session
    demo.stop()
    path = write(tmp_path, "my-posts.json", json.dumps(POSTS))
    server = start_server("--data", str(path))
    assert titles(server) == ["Newest", "Middle", "Oldest"]
    assert "pulldown: " + str(path) + " replaces the demo feed the store held" in server.stderr()
    assert get(server, "/api/session", headers={"X-Session-Id": session}).json()["refreshCount"] == 0


def test_a_store_with_posts_or_another_file_is_refused_naming_reset_and_reset_imports(start_server, tmp_path):
    demo = start_server(seed="20")
    assert post(demo, "/api/items", json={"title": "Posted"}).status == 201
    demo.stop()
    path = write(tmp_path, "posts.json", json.dumps(POSTS))
    assert_one_clear_line(start_with(tmp_path, "--data", str(path)), 1, "posts.json", "posted", "--reset")
    other = write(tmp_path, "other.json", '[{"title": "Other"}]')
    server = start_server("--data", str(path), "--reset")
    assert titles(server) == ["Newest", "Middle", "Oldest"]
    server.stop()
    assert_one_clear_line(start_with(tmp_path, "--data", str(other)), 1, "other.json", "different data file", "--reset")
    assert titles(start_server("--data", str(other), "--reset")) == ["Other"]


HOSTILE = [
    ("not-json.json", b"hello", ["not-json.json", "line 1"]),
    ("malformed.json", b'[\n  {"title": "a"},\n  {"title": "b",}\n]', ["malformed.json", "line 3, column"]),
    ("utf8.json", b'[{"title": "\xff\xfe"}]', ["utf8.json", "line 1", "malformed JSON"]),
    ("deep.json", b"[" * 10000 + b"]" * 10000, ["deep.json", "line 1, column"]),
    ("huge-title.json", b'[{"title": "' + b"x" * 10_000_000 + b'"}]', ["huge-title.json", "entry 0", "title"]),
    ("number.ndjson", b'{"title": "ok"}\n{"title": 5}\n', ["number.ndjson", "entry 1 (line 2)", "title must be a string"]),
    ("no-title.json", b'{"items": [{"title": "ok"}, {"body": "x"}]}', ["no-title.json", "entry 1", "title is required"]),
    ("no-size.json", b'[{"title": "t", "image": {"url": "/p.png", "height": 4}}]', ["no-size.json", "entry 0", "image.width"]),
    ("bad-date.json", b'[{"title": "t", "createdAt": "yesterday"}]', ["bad-date.json", "entry 0", "createdAt"]),
    ("climbs.json", b'[{"title": "t", "avatar": "../../etc/passwd"}]', ["climbs.json", "entry 0", "avatar"]),
    ("scalar.json", b'[{"title": "t"}, 7]', ["scalar.json", "entry 1", "object"]),
]


@pytest.mark.parametrize("name,content,fragments", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_file_is_one_clear_line_exit_1_and_nothing_imported(start_server, tmp_path, name, content, fragments):
    good = write(tmp_path, "good.json", json.dumps(POSTS))
    start_server("--data", str(good)).stop()
    bad = write(tmp_path, name, content)
    assert_one_clear_line(start_with(tmp_path, "--data", str(bad), "--reset"), 1, *fragments)
    assert titles(start_server("--data", str(good))) == ["Newest", "Middle", "Oldest"], "the store is unchanged"


SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"/>'


def picture_folder(tmp_path):
    folder = tmp_path / "data"
    (folder / "sub").mkdir(parents=True)
    (folder / "ana.svg").write_bytes(SVG)
    (folder / "sub" / "pier.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    (folder / "notes.txt").write_bytes(b"text")
    (tmp_path / "outside.svg").write_bytes(SVG)
    (folder / "link.svg").symlink_to(tmp_path / "outside.svg")
    return folder


def test_relative_pictures_are_served_from_the_files_folder_under_one_route(start_server, tmp_path):
    folder = picture_folder(tmp_path)
    path = write(folder, "posts.json", json.dumps([{"title": "t", "avatar": "ana.svg",
                                                    "image": {"url": "sub/pier.png", "width": 4, "height": 3}}]))
    server = start_server("--data", str(path))
    item = get(server, "/api/items").json()["items"][0]
    assert item["avatar"].startswith(f"{server.url}/media/data/") and item["image"]["url"].startswith(f"{server.url}/media/data/")
    for url, body, kind in [(item["avatar"], SVG, "image/svg+xml"), (item["image"]["url"], None, "image/png")]:
        url = on_server(server, url)
        reply = get(server, url)
        assert reply.status == 200 and reply.header("Content-Type") == kind
        assert reply.header("Cache-Control") == "max-age=31536000, immutable"
        assert body is None or reply.body == body
        assert get(server, url, headers={"If-None-Match": reply.header("ETag")}).status == 304
    # Named by content: the first 16 hex digits of the SHA-256, then the path inside the folder.
    svg, text = (hashlib.sha256(data).hexdigest()[:16] for data in (SVG, b"text"))
    assert item["avatar"] == f"{server.url}/media/data/{svg}/ana.svg"
    assert item["image"]["url"].endswith("/sub%2Fpier.png")
    for probe in [f"/media/data/{svg}/..%2Foutside.svg", f"/media/data/{svg}/%2e%2e%2foutside.svg",
                  f"/media/data/{svg}/link.svg", f"/media/data/{text}/notes.txt", f"/media/data/{'0' * 16}/ana.svg",
                  "/media/data/ana.svg", f"/media/data/{svg}/ana.svg/..", "/media/data/"]:
        assert get(server, probe).status == 404, probe


def test_a_picture_changed_since_the_feed_named_it_is_gone_never_other_bytes(start_server, tmp_path):
    # Its URL was promised immutable: the new bytes get a new name, the old name nothing.
    folder = picture_folder(tmp_path)
    path = write(folder, "posts.json", json.dumps([{"title": "t", "avatar": "ana.svg"}]))
    server = start_server("--data", str(path))
    url = on_server(server, get(server, "/api/items").json()["items"][0]["avatar"])
    assert get(server, url).body == SVG
    (folder / "ana.svg").write_bytes(SVG.replace(b'width="4"', b'width="5"'))
    assert get(server, url).status == 404


@pytest.mark.parametrize("relative,why", [("../outside.svg", "leads out"), ("link.svg", "leads out"),
                                          ("sub/../../outside.svg", "leads out"), ("../missing.svg", "leads out"),
                                          ("notes.txt", "must be a picture file"), ("sub", "must be a picture file")])
def test_a_relative_picture_that_leaves_the_folder_or_is_no_picture_is_refused(start_server, tmp_path, relative, why):
    folder = picture_folder(tmp_path)
    path = write(folder, "posts.json", json.dumps([{"title": "t", "avatar": relative}]))
    assert_one_clear_line(start_with(tmp_path, "--data", str(path)), 1, "posts.json", "entry 0", "avatar", relative, why)


@pytest.mark.parametrize("relative", ["missing.png", "sub/gone.jpg", "%2e%2e/outside.svg"])
def test_a_missing_picture_is_called_missing(start_server, tmp_path, relative):
    folder = picture_folder(tmp_path)
    path = write(folder, "posts.json", json.dumps([{"title": "t", "image": {"url": relative, "width": 4, "height": 3}}]))
    result = start_with(tmp_path, "--data", str(path))
    assert_one_clear_line(result, 1, "posts.json", "entry 0", "image.url", relative, "missing")
    assert "must be a picture" not in result.stderr


# ---------------------------------------------------------------- other tools' files

DB_JSON = {
    "posts": [{"id": "1", "title": "a title", "views": 100}, {"id": 2, "title": "another title", "views": 200}],
    "comments": [{"id": "1", "text": "a comment about post 1", "postId": "1"}],
    "profile": {"name": "typicode"},
}


@pytest.mark.parametrize("indent", [2, None], ids=["pretty", "one-line"])
def test_a_json_server_db_json_loads_as_it_is_keeping_each_entrys_id(start_server, tmp_path, indent):
    path = write(tmp_path, "db.json", json.dumps(DB_JSON, indent=indent))
    items = get(start_server("--data", str(path)), "/api/items").json()["items"]
    assert [item["title"] for item in items] == ["a title", "another title"]
    assert [item["sourceId"] for item in items] == ["1", 2], "kept exactly, string or number"
    assert [item["id"] for item in items] == [2, 1], "the item's id is the server's"
    assert [item["views"] for item in items] == [100, 200]


def test_collection_names_the_array_to_import_and_a_large_other_one_is_no_trouble(start_server, tmp_path):
    notes = [{"id": n, "title": f"note {n}", "text": "x" * 500} for n in range(4000)]  # 2 MB before the posts
    path = write(tmp_path, "db.json", json.dumps({"notes": notes, "posts": DB_JSON["posts"]}, indent=2))
    assert titles(start_server("--data", str(path), "--collection", "posts")) == ["a title", "another title"]
    assert titles(start_server("--data", str(path), "--collection", "notes", "--reset"))[:2] == ["note 0", "note 1"]


@pytest.mark.parametrize("content,args,fragments", [
    (json.dumps(DB_JSON), ["--collection", "users"], ["db.json", "no member users", "--collection users"]),
    (json.dumps({"profile": {"name": "x"}, "tags": ["a"]}, indent=2), [], ["db.json", "no array of items", "--collection"]),
    (json.dumps({"posts": {"title": "x"}}), ["--collection", "posts"], ["db.json", "posts is not an array"]),
    (json.dumps([{"title": "a"}]), ["--collection", "posts"], ["db.json", "--collection posts", "JSON array"]),
], ids=["missing-member", "no-array", "not-an-array", "an-array-file"])
def test_a_collection_that_is_not_there_is_one_clear_line(start_server, tmp_path, content, args, fragments):
    path = write(tmp_path, "db.json", content)
    assert_one_clear_line(start_with(tmp_path, "--data", str(path), *args), 1, *fragments)


def test_collection_needs_data():
    assert_one_clear_line(run("--collection", "posts"), 2, "--collection needs --data")


@pytest.mark.parametrize("entry,fragments", [({"id": {"n": 1}, "title": "t"}, ["entry 0", "id", "string or an integer"]),
                                             ({"id": 1, "sourceId": 2, "title": "t"}, ["entry 0", "sourceId"])])
def test_an_id_that_cannot_be_kept_is_refused(start_server, tmp_path, entry, fragments):
    path = write(tmp_path, "posts.json", json.dumps([entry]))
    assert_one_clear_line(start_with(tmp_path, "--data", str(path)), 1, "posts.json", *fragments)


@pytest.mark.parametrize("shape", ["array", "object", "ndjson"])
def test_a_utf8_byte_order_mark_is_accepted(start_server, tmp_path, shape):
    text = {"array": json.dumps(POSTS), "object": json.dumps({"items": POSTS}, indent=1),
            "ndjson": "\n".join(json.dumps(p) for p in POSTS) + "\n"}[shape]
    path = write(tmp_path, "posts.json", b"\xef\xbb\xbf" + text.encode())
    assert titles(start_server("--data", str(path))) == ["Newest", "Middle", "Oldest"]


@pytest.mark.parametrize("encoding,name", [("utf-16", "UTF-16 (little-endian)"), ("utf-16-le", "UTF-16 (little-endian)"),
                                           ("utf-16-be", "UTF-16 (big-endian)"), ("utf-32", "UTF-32 (little-endian)")])
def test_another_encoding_is_named(start_server, tmp_path, encoding, name):
    path = write(tmp_path, "posts.json", json.dumps(POSTS).encode(encoding))
    assert_one_clear_line(start_with(tmp_path, "--data", str(path)), 1, "posts.json", name, "UTF-8")


@pytest.mark.parametrize("text,line", [("{\"title\": \"a\"},\n{\"title\": \"b\"},\n{\"title\": \"c\"}\n", 1),
                                       ("{\"title\": \"a\"}\n{\"title\": \"b\"},\n", 2)], ids=["from-the-first", "later"])
def test_ndjson_with_commas_at_line_ends_says_so(start_server, tmp_path, text, line):
    path = write(tmp_path, "posts.ndjson", text)
    assert_one_clear_line(start_with(tmp_path, "--data", str(path)), 1, "posts.ndjson", f"line {line}", "comma")
