"""--watch: entries appended to the --data file while the server runs become new items, pushed
to open event streams; an edited entry changes nothing and is said once; a malformed entry is
said and the server goes on; a restart with the grown file keeps the store and adds the rest."""
import json
import time

from pulldownkit.client import call, get
from pulldownkit.events import Stream
from pulldownkit.waiting import wait_until
from test_cli import assert_one_clear_line
from test_data_file import start_with, titles, write

# README: an appended entry shows within a second.
PROMISED_SECONDS = 1.0
FIRST = [{"title": "one", "likes": 1}, {"title": "two", "user": {"handle": "@ana"}}]


def ndjson(entries):
    return "".join(json.dumps(entry) + "\n" for entry in entries)


def append(path, text):
    with open(path, "a") as file:
        file.write(text)


def pushed_within_promise(server, change):
    """Makes `change` with an event stream open; returns the items of the first items event,
    which must arrive within the promised time."""
    stream = Stream(server)
    try:
        stream.next_event()  # the stream is open: its retry line has arrived
        started = time.monotonic()
        change()
        event = stream.next_items(deadline_seconds=PROMISED_SECONDS + 5)
        elapsed = time.monotonic() - started
    finally:
        stream.close()
    assert elapsed < PROMISED_SECONDS, elapsed
    return event.data["items"]


def test_an_appended_ndjson_line_is_a_new_item_pushed_to_open_streams(start_server, tmp_path):
    path = write(tmp_path, "posts.ndjson", ndjson(FIRST))
    server = start_server("--data", str(path), "--watch")
    items = pushed_within_promise(server, lambda: append(path, ndjson([{"title": "three", "tags": ["x"]}])))
    assert [item["title"] for item in items] == ["three"] and items[0]["tags"] == ["x"]
    assert titles(server) == ["three", "one", "two"]


def test_an_element_added_at_the_end_of_an_array_is_a_new_item(start_server, tmp_path):
    path = write(tmp_path, "posts.json", json.dumps(FIRST, indent=2))
    server = start_server("--data", str(path), "--watch")
    grown = json.dumps(FIRST + [{"title": "three"}, {"title": "four"}], indent=2)
    items = pushed_within_promise(server, lambda: path.write_text(grown))
    seen = {item["title"] for item in items}
    assert seen <= {"three", "four"} and seen
    wait_until(lambda: titles(server)[:2] == ["four", "three"])
    assert titles(server) == ["four", "three", "one", "two"]


def test_an_edited_entry_changes_nothing_and_is_said_once(start_server, tmp_path):
    path = write(tmp_path, "posts.ndjson", ndjson(FIRST))
    server = start_server("--data", str(path), "--watch")
    path.write_text(ndjson([{"title": "ONE"}, FIRST[1]]))
    line = wait_until(lambda: [l for l in server.stderr().splitlines() if "edited or removed" in l])
    assert len(line) == 1 and "posts.ndjson" in line[0] and "--reset" in line[0], server.stderr()
    assert titles(server) == ["one", "two"]
    # Back as it was, with an entry more: followed again; the edit was said once.
    items = pushed_within_promise(server, lambda: path.write_text(ndjson(FIRST + [{"title": "three"}])))
    assert [item["title"] for item in items] == ["three"]
    assert len([l for l in server.stderr().splitlines() if "edited or removed" in l]) == 1, server.stderr()


def test_a_malformed_appended_line_is_said_and_the_server_goes_on(start_server, tmp_path):
    path = write(tmp_path, "posts.ndjson", ndjson(FIRST))
    server = start_server("--data", str(path), "--watch")
    append(path, '{"title": broken}\n')
    line = wait_until(lambda: [l for l in server.stderr().splitlines() if "malformed JSON" in l])
    assert len(line) == 1 and "posts.ndjson: line 3, column" in line[0], server.stderr()
    assert get(server, "/healthz").status == 200 and titles(server) == ["one", "two"]
    # Fixed, it is taken in with what follows it.
    items = pushed_within_promise(server, lambda: path.write_text(ndjson(FIRST + [{"title": "fixed"}, {"title": "next"}])))
    assert {item["title"] for item in items} <= {"fixed", "next"}
    wait_until(lambda: titles(server)[:2] == ["next", "fixed"])
    assert not server.crashes()


def test_a_restart_with_the_grown_file_keeps_the_store_and_adds_the_rest(start_server, tmp_path):
    path = write(tmp_path, "posts.ndjson", ndjson(FIRST))
    db = tmp_path / "watched.sqlite"
    server = start_server("--data", str(path), "--watch", db=db)
    pushed_within_promise(server, lambda: append(path, ndjson([{"title": "watched"}])))
    session = call(server, "POST", "/api/refresh").session
    server.stop()
    again = start_server("--data", str(path), db=db)
    assert titles(again) == ["watched", "one", "two"], "the file --watch followed is the store's"
    again.stop()
    append(path, ndjson([{"title": "while stopped"}]))
    third = start_server("--data", str(path), db=db)
    assert titles(third) == ["while stopped", "watched", "one", "two"]
    assert "1 entry added" in third.stderr()
    assert get(third, "/api/session", headers={"X-Session-Id": session}).json()["refreshCount"] == 1


def test_watch_needs_data(tmp_path):
    from test_cli import run
    assert_one_clear_line(run("--watch"), 2, "--watch needs --data")


def saved_again(entries):
    """`entries` as an editor's format-on-save might write them: other indentation, keys in
    another order, other escapes."""
    return json.dumps([dict(reversed(list(entry.items()))) for entry in entries], indent=4, ensure_ascii=True)


def test_a_file_saved_again_with_other_indentation_and_key_order_changes_nothing(start_server, tmp_path):
    entries = [{"title": "one", "likes": 1, "user": {"handle": "@ané", "name": "Ané"}}, {"title": "two"}]
    path = write(tmp_path, "posts.json", json.dumps(entries, indent=2, ensure_ascii=False))
    server = start_server("--data", str(path), "--watch")
    items = pushed_within_promise(server, lambda: path.write_text(saved_again(entries + [{"title": "three"}])))
    assert [item["title"] for item in items] == ["three"]
    assert titles(server) == ["three", "one", "two"]
    assert "edited or removed" not in server.stderr()


def test_a_restart_compares_entries_not_bytes(start_server, tmp_path):
    entries = [{"title": "one", "likes": 1, "tags": ["a", "b"]}, {"title": "two", "body": "é"}]
    path = write(tmp_path, "posts.ndjson", ndjson(entries))
    db = tmp_path / "kept.sqlite"
    first = start_server("--data", str(path), db=db)
    session = call(first, "POST", "/api/refresh").session
    first.stop()
    # Another shape, another indentation, other key order: the same entries.
    path.write_text(saved_again(entries))
    again = start_server("--data", str(path), db=db)
    assert titles(again) == ["one", "two"]
    assert get(again, "/api/session", headers={"X-Session-Id": session}).json()["refreshCount"] == 1
    assert "added" not in again.stderr()
    again.stop()
    path.write_text(json.dumps(entries + [{"title": "three"}]))
    third = start_server("--data", str(path), db=db)
    assert titles(third) == ["three", "one", "two"] and "1 entry added" in third.stderr()
    third.stop()
    # An entry that says something else is an edit, however it is written.
    path.write_text(saved_again([{"title": "one", "likes": 2, "tags": ["a", "b"]}] + entries[1:] + [{"title": "three"}]))
    assert_one_clear_line(start_with(tmp_path, "--data", str(path), "--db", str(db)), 1, "posts.ndjson", "--reset")


def test_a_mistake_in_an_entry_already_taken_in_is_said_where_it_is(start_server, tmp_path):
    path = write(tmp_path, "posts.ndjson", ndjson(FIRST))
    server = start_server("--data", str(path), "--watch")
    path.write_text('{"title": "one", "likes": 1,}\n' + ndjson(FIRST[1:]))
    line = wait_until(lambda: [l for l in server.stderr().splitlines() if "malformed JSON" in l])
    assert len(line) == 1 and "posts.ndjson: line 1, column" in line[0], server.stderr()
    assert "edited or removed" not in server.stderr()
    assert titles(server) == ["one", "two"]
