"""Where a slow answer's time went: read from the Server-Timing header the app adds when
made with SERVER_TIMING on (``scorekeeper/web/timing.py``).

The app says its own parts: getting a connection from the pool (waiting for one,
opening one, pinging it), its SQL statements (and rollbacks), its commits and its
renders, each part's own time, and the whole of its request; and for a request set
aside whole (not a poll's answer), its queue: from its greenlet setting it aside to the
app starting it in a render thread.
The bench adds two:

- the rest of the app: the request's time outside those four (the rules replayed, the
  form read, the words put together, and the time the interpreter was busy elsewhere);
- outside the app: what the bench waited beyond the app's request and its queue, from
  sending it to the app taking it up (the worker's greenlets, the interpreter's lock)
  and from the app's last word to the answer read (compression, the connection closed).
"""
from __future__ import annotations

import re

PART = re.compile(r'(\w+);dur=([\d.]+)(?:;desc="(\d+) statements")?')
APP_PARTS = ("pool", "sql", "commit", "render")
SHOWN = {"pool": "pool", "sql": "sql", "commit": "commit", "render": "render",
         "rest": "rest of the app", "queue": "queue", "outside": "outside the app"}


def percentile(values: list[float], part: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * part))] if ordered else 0.0


def parts_of(header: str) -> dict[str, float]:
    """The parts a Server-Timing header says, in ms, and ``statements``: how many the
    request ran ({} where the app said none)."""
    parts: dict[str, float] = {}
    for name, ms, statements in PART.findall(header or ""):
        parts[name] = float(ms)
        if statements:
            parts["statements"] = float(statements)
    return parts


def where_it_went(ms: float, parts: dict[str, float]) -> dict[str, float]:
    """An answer that took ``ms`` to the bench, part by part, the bench's two added."""
    own = sum(parts[name] for name in APP_PARTS)
    queue = parts.get("queue", 0.0)
    return {**{name: parts[name] for name in APP_PARTS}, "rest": parts["app"] - own,
            "queue": queue, "outside": ms - parts["app"] - queue,
            "statements": parts.get("statements", 0.0)}


def slow_ones(timed: list[tuple[float, dict[str, float]]], above: float = 0.95) -> str:
    """A line: the p50/p99 of each part over the answers at or above the ``above``
    percentile of all of them; "" where the app said no parts."""
    said = [(ms, parts) for ms, parts in timed if "app" in parts]
    if not said:
        return ""
    limit = percentile([ms for ms, _ in said], above)
    slow = [where_it_went(ms, parts) for ms, parts in said if ms >= limit]
    shown = ", ".join(
        f"{SHOWN[name]} {percentile([each[name] for each in slow], 0.5):.1f}/"
        f"{percentile([each[name] for each in slow], 0.99):.1f}"
        + (f" ({percentile([each['statements'] for each in slow], 0.5):.0f} statements)"
           if name == "sql" else "")
        for name in SHOWN)
    return (f"the slowest {1 - above:.0%} ({len(slow)}, ≥ {limit:.0f} ms), p50/p99 ms: "
            f"{shown}")
