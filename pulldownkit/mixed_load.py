"""wrk with soak/mixed.lua: page reads, refreshes from many sessions and posts, closed-loop.

Shared by `make soak`, the sustained-load and stop tests: start it in the background, or run it
for a while and read its summary (the JSON line mixed.lua prints at the end)."""
import json
import pathlib
import signal
import subprocess

from pulldownkit.waiting import STUCK_SECONDS

MIXED_LOAD = pathlib.Path(__file__).resolve().parents[1] / "soak" / "mixed.lua"
# A background run's own bound; it is stopped by PID as soon as its caller is done.
BACKGROUND_SECONDS = 30


def start_wrk(server, connections=64, threads=2, script=MIXED_LOAD, seconds=BACKGROUND_SECONDS):
    return subprocess.Popen(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s",
                             "-s", str(script), server.url], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)


def stop_wrk(process):
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=STUCK_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return process.stdout.read().decode(errors="replace")


def run_mixed(server, seconds, connections, threads=2, timeout_seconds=10, reads_only=False):
    """Runs the mixed load (page reads only, with `reads_only`) for `seconds` and returns its
    summary: requests, statuses, socket errors, p50/p99/max latency in ms."""
    result = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout",
                             f"{timeout_seconds}s", "-s", str(MIXED_LOAD), server.url,
                             *(["--", "reads"] if reads_only else [])],
                            capture_output=True, text=True, timeout=seconds + 60)
    line = next((l for l in result.stdout.splitlines() if l.startswith("SOAK ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no summary: {result.stdout}\n{result.stderr}")
    summary = json.loads(line.removeprefix("SOAK "))
    summary["socket_errors"] = (summary["connect_errors"] + summary["read_errors"] + summary["write_errors"]
                                + summary["timeouts"])
    return summary
