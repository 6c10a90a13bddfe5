"""Disk trouble at start: a database in a read-only folder, a read-only database file, a path
the system will not create, and corrupt database files. Each stops pulldown with exit code 1 and
one line naming the path and the reason; none crashes, serves an empty feed, or touches the file."""
import hashlib
import os
import shutil
import sqlite3
import subprocess
import tempfile

import pytest

from pulldownkit.client import all_item_ids
from pulldownkit.server import BINARY, CRASH_MARKERS, REPO, start_server

PAGE = 4096
AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def start(db, *, prefix=(), cwd=None):
    """Runs pulldown on `db` until it exits (10 s at most); returns (exit code, stdout, stderr)."""
    result = subprocess.run([*prefix, BINARY, "--port", "0", "--db", str(db), "--seed", "7",
                             "--public", str(REPO / "Public"), "--quiet"],
                            capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL, cwd=cwd)
    return result.returncode, result.stdout, result.stderr


def assert_refused(result, path, *reasons):
    code, stdout, stderr = result
    assert code == 1, (code, stdout, stderr)
    assert "Listening on" not in stdout
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("pulldown: ") and str(path) in lines[0], lines[0]
    assert any(reason in lines[0] for reason in reasons), lines[0]
    for marker in CRASH_MARKERS:
        assert marker not in stderr


def unprivileged():
    """A command prefix that runs as nobody when the tests run as root (root ignores modes)."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("setpriv is needed to drop root for a read-only folder")
    return AS_NOBODY


@pytest.fixture
def open_folder():
    """A folder every user can reach (pytest's own temporary folders are root's alone)."""
    folder = tempfile.mkdtemp(prefix="pulldown-disk-")
    os.chmod(folder, 0o755)
    yield __import__("pathlib").Path(folder)
    for root, folders, _ in os.walk(folder):
        for name in folders:
            os.chmod(os.path.join(root, name), 0o755)
    shutil.rmtree(folder)


@pytest.fixture(scope="module")
def good_database(tmp_path_factory):
    """A database with 300 items and one session, checkpointed into the main file."""
    folder = tmp_path_factory.mktemp("good")
    db = folder / "feed.sqlite"
    server = start_server(folder, db=db, seed=300)
    assert server.stop() == 0
    connection = sqlite3.connect(db)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.execute("PRAGMA journal_mode = DELETE")
    roots = dict(connection.execute("SELECT name, rootpage FROM sqlite_schema"))
    connection.close()
    return db.read_bytes(), roots


def test_a_new_database_in_a_read_only_folder_is_refused(open_folder):
    folder = open_folder / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    path = folder / "feed.sqlite"
    assert_refused(start(path, prefix=unprivileged(), cwd="/"), path, "is read-only: Permission denied")
    assert not path.exists()


def test_an_existing_database_in_a_read_only_folder_is_refused(open_folder, good_database):
    data, _ = good_database
    folder = open_folder / "locked"
    folder.mkdir()
    path = folder / "feed.sqlite"
    path.write_bytes(data)
    path.chmod(0o666)
    folder.chmod(0o555)
    # The write-ahead log cannot be created next to it: no silently read-only feed.
    assert_refused(start(path, prefix=unprivileged(), cwd="/"), path, "readonly", "read-only", "unable to open")
    assert path.read_bytes() == data


def test_a_read_only_database_file_is_refused(open_folder, good_database):
    data, _ = good_database
    open_folder.chmod(0o777)
    path = open_folder / "feed.sqlite"
    path.write_bytes(data)
    path.chmod(0o444)
    assert_refused(start(path, prefix=unprivileged(), cwd="/"), path, "readonly", "read-only", "cannot be written")
    assert path.read_bytes() == data


@pytest.mark.parametrize("path", ["/proc/pulldown-feed.sqlite", "/proc/self/status", "/sys/pulldown-feed.sqlite"])
def test_a_path_the_system_will_not_create_is_refused(path):
    assert_refused(start(path, cwd="/"), path, "unable to open", "readonly", "not a database", "read-only")


def corrupt(data, roots, kind):
    pages = bytearray(data)

    def page(number, content):
        pages[(number - 1) * PAGE:number * PAGE] = content

    if kind == "garbage":
        return os.urandom(len(data))
    if kind == "wrong-header":
        pages[0:16] = b"SQLite format 4\x00"
    elif kind == "truncated-half":
        return data[:len(data) // 2]
    elif kind == "truncated-to-header":
        return data[:100]
    elif kind == "items-root-overwritten":
        page(roots["items"], b"\xff" * PAGE)
    elif kind == "sessions-root-random":
        page(roots["sessions"], os.urandom(PAGE))
    elif kind == "last-page-zeroed":
        pages[-PAGE:] = bytes(PAGE)
    elif kind == "every-page-but-the-first-random":
        pages[PAGE:] = os.urandom(len(data) - PAGE)
    return bytes(pages)


@pytest.mark.parametrize("kind", ["garbage", "wrong-header", "truncated-half", "truncated-to-header",
                                  "items-root-overwritten", "sessions-root-random", "last-page-zeroed",
                                  "every-page-but-the-first-random"])
def test_a_corrupt_database_is_refused_and_left_as_it_was(tmp_path, good_database, kind):
    data, roots = good_database
    path = tmp_path / f"{kind}.sqlite"
    damaged = corrupt(data, roots, kind)
    path.write_bytes(damaged)
    digest = hashlib.sha256(damaged).hexdigest()
    assert_refused(start(path), path, "corrupt", "malformed", "not a database")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, "the damaged file was changed"


def test_the_undamaged_copy_still_starts_with_every_item(tmp_path, good_database):
    data, _ = good_database
    path = tmp_path / "feed.sqlite"
    path.write_bytes(data)
    server = start_server(tmp_path, db=path, seed=7)
    try:
        assert len(all_item_ids(server)) == 300
    finally:
        assert server.stop() == 0
