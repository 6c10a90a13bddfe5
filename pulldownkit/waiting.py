"""Waiting for something the server causes, without fixed sleeps."""
import time

# How long an event the server causes at once may take to show before it is called stuck: far
# beyond any answer on loopback, so that only a hang fails, even with every core busy.
STUCK_SECONDS = 15


def wait_until(predicate, timeout=STUCK_SECONDS, interval=0.02):
    """Polls `predicate` until it holds; returns its last value. The timeout only guards
    against a hang: size it to what the README promises plus headroom for busy cores."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()
