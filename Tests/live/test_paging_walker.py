"""The paging walker: from 1,000 random anchors of a 500-item feed with gaps (deleted items), each
with a random limit from 1 to 100, a client opens the page around the anchor and walks out both
ways by the Links (rel="prev" up, rel="next" down) until neither is left; what it rebuilds is the
exact feed every time: every live id once, in order. Then 200 random ranges, each walked by its
Links with a random limit, return exactly the live items strictly between their bounds.

One keep-alive connection and a fixed seed, so it runs the same every time: 23,135 requests
in about twenty seconds (a walk with limit 1 is a request per item, so the feed is kept small)."""
import http.client
import json
import random
import re

from pulldownkit.client import call, on_server

ITEMS = 500
ANCHORS = 1_000
RANGES = 200


class Walker:
    """GETs on one kept-alive connection: (body, {rel: path})."""

    def __init__(self, server):
        self.server = server
        self.connection = http.client.HTTPConnection(server.host, server.port, timeout=10)

    def get(self, path):
        self.connection.request("GET", path)
        response = self.connection.getresponse()
        body = response.read()
        assert response.status == 200, (path, response.status, body[:300])
        found = re.findall(r'<([^>]*)>;\s*rel="(\w+)"', ", ".join(response.headers.get_all("Link") or []))
        return json.loads(body), {rel: on_server(self.server, url) for url, rel in found}


def item_ids(body):
    return [item["id"] for item in body["items"]]


def live_feed(start_server):
    """A server with ITEMS items, one in seven deleted (runs of them too), and the live ids, newest first."""
    server = start_server(seed=str(ITEMS))
    rng = random.Random(36)
    deleted = {id for id in range(1, ITEMS + 1) if rng.random() < 1 / 7} | set(range(300, 320))
    for id in sorted(deleted):
        assert call(server, "DELETE", f"/api/items/{id}").status == 204
    return server, [id for id in range(ITEMS, 0, -1) if id not in deleted], deleted


def test_walking_out_from_random_anchors_rebuilds_the_exact_feed(start_server):
    server, feed, deleted = live_feed(start_server)
    walker, rng = Walker(server), random.Random(2143)
    for _ in range(ANCHORS):
        anchor, limit = rng.randint(1, ITEMS + 5), rng.randint(1, 100)
        body, rels = walker.get(f"/api/items?around={anchor}&limit={limit}")
        assert body["anchor"] == {"id": anchor, "found": anchor <= ITEMS and anchor not in deleted}
        assert body["limit"] == limit and len(body["items"]) <= limit
        middle = item_ids(body)
        newer, path = [], rels.get("prev")
        while path:
            up, up_rels = walker.get(path)
            newer = item_ids(up) + newer
            path = up_rels.get("next")
        older, path = [], rels.get("next")
        while path:
            down, down_rels = walker.get(path)
            older += item_ids(down)
            path = down_rels.get("next")
        assert newer + middle + older == feed, (anchor, limit)


def test_every_range_returns_exactly_the_items_strictly_between_its_bounds(start_server):
    server, feed, _ = live_feed(start_server)
    walker, rng = Walker(server), random.Random(5493)
    for _ in range(RANGES):
        after = rng.randint(0, ITEMS)
        before = rng.randint(after + 1, min(after + 400, ITEMS + 10))
        limit = rng.randint(1, 100)
        got, path = [], f"/api/items?after={after}&before={before}&limit={limit}"
        while path:
            body, rels = walker.get(path)
            got += item_ids(body)
            assert body["rangeDone"] is ("next" not in rels)
            path = rels.get("next")
        assert got == [id for id in feed if after < id < before], (after, before, limit)
        assert body["hasMore"] is (after >= 1), "the feed goes on below the range: every id is a place"
