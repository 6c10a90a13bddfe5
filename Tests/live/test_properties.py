"""Property tests: random valid sequences of posts, page walks and refreshes from several
sessions keep the feed's promises.

- Walking the pages (older via `before`, newer via `after`) lists every item exactly once.
- A new item's id is larger than every id seen before.
- A refresh returns exactly the newest items above its baseline, and says `gap` when it left some.
- A session's last-updated time never moves back, and its stored state matches its refreshes.
"""
import datetime
import re

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test

from pulldownkit.client import all_item_ids, on_server
from test_hostile_support import http_json

LIMITS = st.sampled_from([1, 2, 3, 5, 10, 25, 100])
SETTINGS = settings(max_examples=20, stateful_step_count=20, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


def parse_time(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def next_path(server, headers):
    link = headers.get("link")
    return on_server(server, re.match(r"<([^>]+)>", link).group(1)) if link else None


class FeedMachine(RuleBasedStateMachine):
    server = None

    @initialize()
    def read_the_feed(self):
        self.ids = sorted(all_item_ids(self.server), reverse=True)
        self.feed = http_json(self.server, "GET", "/api/items?limit=1")[2]["feed"]
        assert len(self.ids) == len(set(self.ids))
        self.sessions = []  # dicts: token, lastSeen, lastUpdated, refreshCount

    # ------------------------------------------------------------ writes

    @rule(count=st.integers(1, 3), title=st.text(st.characters(categories=["L", "N", "P", "S", "Zs"]), min_size=1, max_size=30).filter(str.strip))
    def post_items(self, count, title):
        for _ in range(count):
            status, headers, item = http_json(self.server, "POST", "/api/items", {"title": title, "author": "prop"})
            assert status == 201, (status, item)
            assert not self.ids or item["id"] > self.ids[0], "ids only grow"
            assert headers["location"] == f"{self.server.url}/api/items/{item['id']}?feed={self.feed}"
            self.ids.insert(0, item["id"])

    @rule(which=st.integers(0, 3), after=st.one_of(st.none(), st.integers(0, 10**6)), pick=st.booleans(),
          limit=st.one_of(st.none(), LIMITS))
    def refresh(self, which, after, pick, limit):
        if after is not None and pick and self.ids:
            after = self.ids[after % len(self.ids)]
        body = {}
        if after is not None:
            body["after"] = after
        if limit is not None:
            body["limit"] = limit
        headers = {}
        session = self.sessions[which] if which < len(self.sessions) else None
        if session:
            headers["X-Session-Id"] = session["token"]
        status, reply_headers, result = http_json(self.server, "POST", "/api/refresh", body, headers=headers)
        assert status == 200, result
        if session is None:
            session = {"token": reply_headers["x-session-id"], "lastSeen": 0, "lastUpdated": None, "refreshCount": 0}
            self.sessions.append(session)
        assert reply_headers["x-session-id"] == session["token"]
        baseline = after if after is not None else session["lastSeen"]
        page = limit or 10
        newer = [item_id for item_id in self.ids if item_id > baseline]
        assert [item["id"] for item in result["items"]] == newer[:page]
        assert result["gap"] == (len(newer) > page)
        updated = parse_time(result["lastUpdated"])
        if session["lastUpdated"] is not None:
            assert updated >= session["lastUpdated"], "last-updated moved back"
        newest = self.ids[0] if self.ids else 0
        session["lastSeen"] = max(session["lastSeen"], min(baseline, newest), newer[0] if newer[:page] else 0)
        session["lastUpdated"] = updated
        session["refreshCount"] += 1

    # ------------------------------------------------------------ reads

    @rule(limit=LIMITS)
    def walk_older(self, limit):
        seen = []
        path = f"/api/items?limit={limit}"
        while path:
            status, headers, page = http_json(self.server, "GET", path)
            assert status == 200
            seen.extend(item["id"] for item in page["items"])
            assert page["hasMore"] == (next_path(self.server, headers) is not None)
            path = next_path(self.server, headers)
        assert seen == self.ids, "every item exactly once, newest first"

    @rule(limit=LIMITS, start=st.integers(0, 10**6))
    def walk_newer(self, limit, start):
        after = 0 if not self.ids else sorted(self.ids)[start % len(self.ids)] if start % 3 else 0
        collected = []
        path = f"/api/items?limit={limit}&after={after}"
        while path:
            status, headers, page = http_json(self.server, "GET", path)
            assert status == 200
            batch = [item["id"] for item in page["items"]]
            assert batch == sorted(batch, reverse=True)
            collected.extend(reversed(batch))
            path = next_path(self.server, headers)
        assert collected == sorted(item_id for item_id in self.ids if item_id > after)

    @precondition(lambda self: bool(self.sessions))
    @rule(which=st.integers(0, 3))
    def read_session(self, which):
        session = self.sessions[which % len(self.sessions)]
        status, _, state = http_json(self.server, "GET", "/api/session", headers={"X-Session-Id": session["token"]})
        assert status == 200
        assert state["refreshCount"] == session["refreshCount"]
        assert state["lastSeenId"] == session["lastSeen"]
        assert parse_time(state["lastUpdated"]) == session["lastUpdated"]

    @invariant()
    def ids_are_unique(self):
        assert len(self.ids) == len(set(getattr(self, "ids", [])))


def test_random_sequences_keep_the_feed_invariants(start_server):
    FeedMachine.server = start_server(seed="12")
    run_state_machine_as_test(FeedMachine, settings=SETTINGS)


def test_random_sequences_on_an_empty_feed_keep_the_invariants(start_server):
    FeedMachine.server = start_server(seed="0")
    run_state_machine_as_test(FeedMachine, settings=settings(SETTINGS, max_examples=6))
