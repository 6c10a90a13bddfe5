"""`/` over HTTP: the page with the newest page already in it, as articles with the rest of the
JSON the API answers, kept until the next insert, revalidated by ETag, gzipped, and never an error."""
import gzip
import json
import re

from pulldownkit.client import call, get, post

DATA = re.compile(rb'<script type="application/json" id="first-page">(.*?)</script>', re.S)


def embedded(body):
    """The newest page's JSON the page carries: the API's answer less its items."""
    return json.loads(DATA.search(body).group(1))


def article_ids(body):
    return [int(x) for x in re.findall(rb'<article [^>]*data-id="(\d+)"', body)]


def test_the_page_carries_the_newest_page_as_articles_and_the_rest_of_the_apis_json(start_server):
    server = start_server(seed="25")
    page = get(server, "/")
    assert page.status == 200
    assert page.content_type == "text/html"
    assert page.header("Cache-Control") == "no-cache"
    assert article_ids(page.body) == list(range(25, 15, -1))
    answered = get(server, "/api/items").json()
    assert article_ids(page.body) == [item["id"] for item in answered.pop("items")]
    assert embedded(page.body) == answered, "the page the script would have asked for, its items as articles"
    assert embedded(page.body)["hasMore"] is True
    assert get(server, "/index.html").body == page.body
    assert b"<!--newest-page-->" not in page.body


def test_item_text_is_escaped_and_cannot_end_the_data_block(start_server):
    server = start_server(seed="0")
    evil = '</script><script>alert(1)</script><img src=x onerror=alert(2)> & "q"'
    assert post(server, "/api/items", json={"title": evil, "body": evil, "author": evil}).status == 201
    body = get(server, "/").body
    assert b"<img" not in body
    assert body.count(b"</script>") == body.count(b"<script"), "every script element ends where it should"
    assert embedded(body) == {"limit": 10, "hasMore": False, "next": None, "feed": get(server, "/api/items").json()["feed"],
                              "changes": 1}, \
        "no item text in the data block"
    assert b"&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; &amp; &quot;q&quot;" in body


def test_an_insert_makes_a_new_page_and_the_old_tag_stale(start_server):
    server = start_server(seed="5")
    first = get(server, "/")
    etag = first.header("ETag")
    assert get(server, "/", headers={"If-None-Match": etag}).status == 304
    assert get(server, "/").body == first.body, "the same page until the feed changes"
    assert post(server, "/api/items", json={"title": "Fresh from a post"}).status == 201
    after = get(server, "/", headers={"If-None-Match": etag})
    assert after.status == 200
    assert after.header("ETag") != etag
    assert article_ids(after.body)[0] == 6
    assert b">Fresh from a post</h2>" in after.body


def test_gzip_head_and_conditional_requests(start_server):
    server = start_server(seed="30")
    plain = get(server, "/")
    packed = get(server, "/", headers={"Accept-Encoding": "gzip"})
    assert packed.header("Content-Encoding") == "gzip"
    assert "Accept-Encoding" in packed.header("Vary")
    assert gzip.decompress(packed.body) == plain.body
    assert packed.header("ETag") != plain.header("ETag")
    assert get(server, "/", headers={"Accept-Encoding": "gzip", "If-None-Match": packed.header("ETag")}).status == 304
    head = call(server, "HEAD", "/", headers={"Accept-Encoding": "gzip"})
    assert head.status == 200 and head.body == b""
    assert head.header("Content-Length") == str(len(packed.body))
    assert head.header("ETag") == packed.header("ETag")
    refused = call(server, "POST", "/", body=b"")
    assert refused.status == 405
    assert refused.header("Allow") == "GET, HEAD"


def test_an_empty_feed_is_a_page_with_an_empty_feed(start_server):
    server = start_server(seed="0")
    body = get(server, "/").body
    assert article_ids(body) == []
    assert embedded(body) == {"limit": 10, "hasMore": False, "next": None, "feed": get(server, "/api/items").json()["feed"],
                              "changes": 0}


def test_the_page_size_is_the_servers(start_server):
    server = start_server("--page-size", "4", seed="9")
    body = get(server, "/").body
    assert article_ids(body) == [9, 8, 7, 6]
    assert embedded(body)["limit"] == 4
