"""The command line: --help, usage errors (exit 2), runtime errors (exit 1), the one
Listening line, and PULLDOWN_* variables with the flag winning. Every run has a timeout."""
import os
import re
import select
import signal
import socket
import subprocess

import pytest

from pulldownkit.raw import free_port
from pulldownkit.server import BINARY, REPO, STARTUP_SECONDS
from pulldownkit.waiting import STUCK_SECONDS
FLAGS = ["--host", "--port", "--public", "--db", "--seed", "--page-size", "--new-items-every",
         "--session-ttl-days", "--delay-ms", "--jitter-ms", "--fail-rate", "--cors-origin", "--threads",
         "--connection-timeout", "--connection-limit", "--quiet", "--help"]
TRACE_MARKERS = ["Fatal error", "Stack dump", "Current stack trace", "#0 ", "0x0000", "Aborted", "Swift runtime failure"]


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PULLDOWN_")}
    env.update(extra)
    return env


def run(*args, env=None, cwd=None, timeout=10):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=timeout,
                          env=env or clean_env(), cwd=cwd, stdin=subprocess.DEVNULL)


def assert_one_clear_line(result, code, *fragments):
    assert result.returncode == code, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("pulldown: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    for marker in TRACE_MARKERS:
        assert marker not in result.stderr
    assert "Listening on" not in result.stdout


class Running:
    """A server started by hand, for what start_server does not cover (environment, stdout)."""

    def __init__(self, args, env, cwd):
        self.process = subprocess.Popen([BINARY, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        stdin=subprocess.DEVNULL, env=env, cwd=cwd)

    def first_line(self, timeout=STARTUP_SECONDS):
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert ready, "no output in time"
        return self.process.stdout.readline().decode()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            out, err = self.process.communicate(timeout=STUCK_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, err = self.process.communicate()
        return self.process.returncode, out.decode(), err.decode()


@pytest.fixture
def running(tmp_path):
    started = []

    def start(*args, env=None, quiet=True, seed="0"):
        """`seed=None` gives no --seed at all."""
        base = ["--db", str(tmp_path / "feed.sqlite"), "--public", str(REPO / "Public")]
        if seed is not None:
            base += ["--seed", seed]
        if quiet:
            base.append("--quiet")
        server = Running([*base, *args], env or clean_env(), tmp_path)
        started.append(server)
        return server

    start.folder = tmp_path
    yield start
    for server in started:
        server.stop()


# ---------------------------------------------------------------- help

def test_help_exits_0_and_lists_every_flag():
    result = run("--help")
    assert result.returncode == 0
    assert result.stdout.startswith("Usage: pulldown")
    assert result.stderr == ""
    for flag in FLAGS:
        assert re.search(rf"^\s+{re.escape(flag)}\b", result.stdout, re.M), f"{flag} missing from --help"


def test_short_h_is_help_too():
    result = run("-h")
    assert result.returncode == 0
    assert result.stdout.startswith("Usage: pulldown")


def test_help_shows_each_flag_with_its_whole_value_name_apart_from_its_text():
    result = run("--help")
    flag_lines = [line for line in result.stdout.splitlines() if line.startswith("  --")]
    assert len(flag_lines) >= 17
    for line in flag_lines:
        match = re.match(r"^  (--[a-z-]+)( [A-Z]+)?(\s{2,})\S", line)
        assert match, f"flag, value name and help are not separated: {line!r}"
    assert "--connection-timeout SECONDS " in result.stdout


def test_help_mentions_the_environment_variables():
    result = run("--help")
    for variable in ["PULLDOWN_PORT", "PULLDOWN_DB", "PULLDOWN_PUBLIC", "PULLDOWN_QUIET"]:
        assert variable in result.stdout


# ---------------------------------------------------------------- usage errors: exit 2

def test_unknown_flag_is_a_usage_error():
    assert_one_clear_line(run("--bogus"), 2, "--bogus")


def test_positional_argument_is_a_usage_error():
    assert_one_clear_line(run("serve"), 2, "serve")


def test_missing_value_is_a_usage_error():
    assert_one_clear_line(run("--port"), 2, "--port")
    assert_one_clear_line(run("--db"), 2, "--db")


@pytest.mark.parametrize("value", ["abc", "70000", "-1", "65536", "8080x", ""])
def test_bad_port_is_a_usage_error(value):
    assert_one_clear_line(run("--port", value), 2, "--port")
    assert_one_clear_line(run(f"--port={value}"), 2, "--port")


@pytest.mark.parametrize("args", [["--seed", "many"], ["--page-size", "0"], ["--page-size", "101"],
                                  ["--fail-rate", "1.5"], ["--delay-ms", "-5"], ["--threads", "0"],
                                  ["--cors-origin", "*"], ["--quiet=maybe"]])
def test_bad_values_are_usage_errors(args):
    assert_one_clear_line(run(*args), 2, args[0].split("=")[0])


def test_bad_environment_value_is_a_usage_error_naming_the_variable():
    assert_one_clear_line(run(env=clean_env(PULLDOWN_PORT="abc")), 2, "PULLDOWN_PORT")


# ---------------------------------------------------------------- runtime errors: exit 1

def test_port_in_use_is_a_runtime_error(tmp_path):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        port = holder.getsockname()[1]
        result = run("--port", str(port), "--db", str(tmp_path / "db.sqlite"), "--public", str(REPO / "Public"),
                     cwd=tmp_path)
    assert_one_clear_line(result, 1, str(port), "in use")


def test_missing_public_folder_is_a_runtime_error(tmp_path):
    missing = tmp_path / "no-such-folder"
    result = run("--port", "0", "--db", str(tmp_path / "db.sqlite"), "--public", str(missing), cwd=tmp_path)
    assert_one_clear_line(result, 1, str(missing))


def test_public_that_is_a_file_is_a_runtime_error(tmp_path):
    result = run("--port", "0", "--db", str(tmp_path / "db.sqlite"), "--public", str(REPO / "Package.swift"),
                 cwd=tmp_path)
    assert_one_clear_line(result, 1, "Package.swift")


@pytest.mark.parametrize("kind", ["under-a-file", "missing-folder", "a-folder"])
def test_unusable_database_path_is_a_runtime_error(tmp_path, kind):
    blocker = tmp_path / "plain-file"
    blocker.write_text("not a folder")
    path = {"under-a-file": blocker / "feed.sqlite",
            "missing-folder": tmp_path / "missing" / "deeper" / "feed.sqlite",
            "a-folder": tmp_path}[kind]
    result = run("--port", "0", "--db", str(path), "--public", str(REPO / "Public"), cwd=tmp_path)
    assert_one_clear_line(result, 1, str(path))


def test_bad_host_is_a_runtime_error(tmp_path):
    result = run("--host", "no.such.host.invalid", "--port", "0", "--db", str(tmp_path / "db.sqlite"),
                 "--public", str(REPO / "Public"), cwd=tmp_path, timeout=30)
    assert_one_clear_line(result, 1, "no.such.host.invalid")


# ---------------------------------------------------------------- listening

def test_port_0_prints_exactly_one_listening_line_first_then_what_it_serves(running):
    server = running("--port", "0")
    line = server.first_line()
    match = re.fullmatch(r"Listening on http://127\.0\.0\.1:(\d+)\n", line)
    assert match, line
    port = int(match.group(1))
    assert 0 < port < 65536
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert sock.recv(12) == b"HTTP/1.1 200"
    assert server.process.stdout.readline().decode() == f"Serving an empty feed from {running.folder / 'feed.sqlite'}\n"
    code, rest, err = server.stop()
    assert code == 0
    assert rest == "", "nothing else on stdout"


def test_port_from_the_environment_is_used(running):
    port = free_port()
    server = running(env=clean_env(PULLDOWN_PORT=str(port)))
    assert server.first_line() == f"Listening on http://127.0.0.1:{port}\n"


def test_flag_wins_over_the_environment(running):
    env_port, flag_port = free_port(), free_port()
    server = running("--port", str(flag_port), env=clean_env(PULLDOWN_PORT=str(env_port)))
    assert server.first_line() == f"Listening on http://127.0.0.1:{flag_port}\n"
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", env_port)) != 0, "nothing listens on the variable's port"


@pytest.mark.parametrize("quiet,logged", [("1", False), ("0", True)])
def test_quiet_from_the_environment_silences_the_log(running, quiet, logged):
    server = running("--port", "0", env=clean_env(PULLDOWN_QUIET=quiet), quiet=False)
    port = int(server.first_line().strip().rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        while sock.recv(4096):
            pass
    code, _, err = server.stop()  # once it has exited, every line it would log is written
    assert code == 0
    assert ("GET /healthz 200" in err) == logged, err


def test_sigterm_right_after_the_listening_line_stops_the_server(tmp_path):
    for attempt in range(20):
        process = subprocess.Popen([BINARY, "--port", "0", "--db", ":memory:", "--seed", "0", "--quiet",
                                    "--public", str(REPO / "Public")], stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=clean_env(), cwd=tmp_path)
        try:
            assert process.stdout.readline().startswith(b"Listening on ")
            process.send_signal(signal.SIGTERM)
            # A lost signal never ends the process; the bound only tells lost from slow.
            assert process.wait(timeout=STUCK_SECONDS) == 0, f"attempt {attempt}"
        except subprocess.TimeoutExpired:
            pytest.fail(f"attempt {attempt}: SIGTERM sent right after the Listening line was lost")
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stdout.close()


# ---------------------------------------------------------------- seeding

def test_seed_on_a_store_that_holds_items_says_so_at_start(running):
    first = running("--port", "0", "--seed", "95")
    assert first.first_line().startswith("Listening on")
    code, _, err = first.stop()
    assert code == 0
    assert "was not applied" not in err, "an empty store is seeded without a word"
    second = running("--port", "0", "--seed", "15")
    assert second.first_line().startswith("Listening on")
    code, _, err = second.stop()
    assert code == 0
    assert "pulldown: the store already holds 95 items; --seed 15 was not applied (--reset applies it)\n" in err


def seeded_once(running, count):
    """The fixture's store, seeded with `count` items by a server that ran and stopped."""
    first = running("--port", "0", seed=str(count))
    assert first.first_line().startswith("Listening on")
    assert first.stop()[0] == 0


def test_a_restart_without_seed_says_nothing_about_it(running):
    seeded_once(running, 20)
    server = running("--port", "0", seed=None)
    assert server.first_line().startswith("Listening on")
    code, _, err = server.stop()
    assert code == 0
    assert "--seed" not in err and "not applied" not in err, err


def test_a_seed_from_the_environment_counts_as_given(running):
    seeded_once(running, 20)
    server = running("--port", "0", seed=None, env=clean_env(PULLDOWN_SEED="7"))
    assert server.first_line().startswith("Listening on")
    code, _, err = server.stop()
    assert code == 0
    assert "pulldown: the store already holds 20 items; --seed 7 was not applied (--reset applies it)\n" in err, err
