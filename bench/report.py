"""What a benchmark run prints at the end: one table row per measured subject, and the floors
each figure must meet."""
ROWS = []
FLOORS = []


def row(scenario, subject, figures, baseline=None, ratio_of="rps", rss=None):
    """A table row: wrk-style `figures` (rps, p50, p99, errors), their ratio to `baseline`'s."""
    ratio = ""
    if baseline:
        ratio = f"{figures[ratio_of] / baseline[ratio_of]:.2f}x {ratio_of}"
    ROWS.append((scenario, subject, f"{figures['rps']:,.0f}", f"{figures['p50']:.2f}", f"{figures['p99']:.2f}",
                 str(figures["errors"]), ratio, f"{rss:.1f}" if rss else ""))


def floor(name, value, limit, better="higher", unit=""):
    """Records whether `value` meets `limit` (at least it, or with better="lower" at most it)."""
    ok = value >= limit if better == "higher" else value <= limit
    FLOORS.append((name, f"{value:.2f}{unit}", f"{'>=' if better == 'higher' else '<='} {limit}{unit}",
                   "ok" if ok else "BELOW FLOOR"))


def print_table(headers, rows):
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(str(x).ljust(w) for x, w in zip(r, widths)))
    print()


def print_report():
    print_table(["scenario", "subject", "req/s", "p50 ms", "p99 ms", "errors", "ratio", "RSS MB"], ROWS)
    print_table(["floor", "measured", "must be", "verdict"], FLOORS)
