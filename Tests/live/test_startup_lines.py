"""What start-up says: `Listening on …` first, then what is served and where from; a long import
on a terminal shows how far it got and ends with one line."""
import json
import os
import pty
import select
import subprocess

from pulldownkit.server import BINARY, PUBLIC, STARTUP_SECONDS
from test_cli import clean_env
from test_data_file import write


def first_lines(server, count):
    """The first `count` lines the server printed on standard output."""
    lines = []
    while len(lines) < count:
        lines.append(server.process.stdout.readline().decode().rstrip("\n"))
    return lines


def test_the_line_after_listening_says_what_is_served_and_where_from(start_server, tmp_path):
    demo = start_server(seed="50", db=tmp_path / "demo.sqlite")
    assert first_lines(demo, 1) == [f"Serving the demo feed (50 items) from {tmp_path / 'demo.sqlite'}"]
    path = write(tmp_path, "blog.json", json.dumps([{"title": f"post {n}"} for n in range(40)]))
    blog = start_server("--data", str(path), db=tmp_path / "blog.sqlite")
    assert first_lines(blog, 1) == [f"Serving 40 items from {path}"]
    empty = start_server(seed="0", db=":memory:")
    assert first_lines(empty, 1) == ["Serving an empty feed from a store in memory"]


def test_a_long_import_on_a_terminal_shows_its_progress_and_one_line_at_the_end(tmp_path):
    entries = 5000
    path = write(tmp_path, "big.ndjson", "".join(json.dumps({"title": f"post {n}", "body": "text " * 40}) + "\n"
                                                 for n in range(entries)))
    assert path.stat().st_size > 1 << 20
    terminal, stderr = pty.openpty()
    process = subprocess.Popen([BINARY, "--port", "0", "--quiet", "--db", str(tmp_path / "feed.sqlite"), "--data", str(path),
                                "--public", str(PUBLIC)], stdout=subprocess.PIPE, stderr=stderr, stdin=subprocess.DEVNULL,
                               env=clean_env(), cwd=tmp_path)
    os.close(stderr)
    try:
        ready, _, _ = select.select([process.stdout], [], [], STARTUP_SECONDS * 4)
        assert ready and process.stdout.readline().startswith(b"Listening on ")
        # The import ended before the server listened: all it drew is there to read.
        shown = b""
        while b"\n" not in shown:
            ready, _, _ = select.select([terminal], [], [], STARTUP_SECONDS)
            assert ready, shown
            shown += os.read(terminal, 65536)
    finally:
        process.terminate()
        process.wait(timeout=STARTUP_SECONDS)
        process.stdout.close()
        os.close(terminal)
    text = shown.decode()
    drawn = [part.removeprefix("\x1b[K") for part in text.split("\r") if part.strip()]
    assert any(line.startswith(f"pulldown: reading {path}: ") and f" of about " in line for line in drawn), drawn
    assert drawn[-1].startswith(f"pulldown: imported 5,000 entries from {path} in "), drawn
    assert text.endswith(" s\r\n") and text.count("\n") == 1, "one line stays, the progress drawn over"


def test_without_a_terminal_nothing_is_drawn(start_server, tmp_path):
    path = write(tmp_path, "big.ndjson", "".join(json.dumps({"title": f"post {n}", "body": "text " * 40}) + "\n"
                                                 for n in range(5000)))
    server = start_server("--data", str(path))
    assert server.stderr() == ""
