"""How soon a hand reaches every phone of a table on a slow phone network, in real browsers.

    python bench/live_delay.py                 # 20 hands, a scorer and 5 watchers, 150 ms
    python bench/live_delay.py --hands 40 --latency 300

Starts gunicorn (2 gevent workers, as ``deploy/scorekeeper.service`` does; CSRF on) on
127.0.0.1 with a fresh SQLite file, a club with a scorer and five watchers (each a device
of its own) and a game. Six Chromium pages (headless, 390x844, a context each), each with
DevTools emulating the same phone network (``Network.emulateNetworkConditions``: 150 ms
round trip, 1.6 Mbit/s down, 750 kbit/s up, by default), open the game.

First as the phones polled before their polls were held (the bench takes ``wait=1`` off
each poll's address: answered at once, asked again every 2 s), then as they poll now.
The scorer's page sends Record for the next hand (a ``fetch`` from the page, through the
emulated network, as its form does) every 1 to 3 seconds; each watcher's page notes when
a poll's answer is in (htmx's ``afterSettle``, the page's own clock). A hand's delay is
from the scorer's page sending it to a watcher's page having it (the first of the
answer's parts settled): the scorer's way up, the server, a watcher's way down. It
prints the median and 95th percentile of every watcher's delay and of the last
watcher's, hand by hand. Then, polls held, the same after what a phone meets at a table,
the delay counted from the moment it is over:

- a dropped connection: the watchers offline (``offline: true``) for 8 s, a hand recorded
  meanwhile, then back;
- a server restart: gunicorn stopped, started again on the same port 5 s later, and a
  hand recorded as soon as it answers.

- a sleeping phone whose connection was lost meanwhile: each watcher's poll out is lost
  (its answer never comes, as on a connection the Wi-Fi dropped while the phone slept:
  the page is left waiting on it) and the page told its screen is off; a hand recorded
  meanwhile; then the screen on again (the page told so, as the browser tells it).

(DevTools' frozen state, ``Page.setWebLifecycleState``, leaves a headless page on screen
running: the screen going off and on is told to the page as its browser would, by
``visibilitychange``.) Nothing is asserted: numbers are measured. It stops by itself
and removes its folder.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import throughput as served  # noqa: E402  (bench/throughput.py: server start, a game)

WATCHERS = 5
CHROMIUM = "/usr/bin/chromium"
ANSWERED = """
window.liveAnswers = [];
document.addEventListener("htmx:afterSettle", (event) => {
  const xhr = event.detail.xhr;
  if (xhr && xhr.status === 200 && xhr.responseURL.includes("/live?")) window.liveAnswers.push(Date.now());
});
"""
RECORD = """async ([url, form]) => {
  const body = new URLSearchParams(form);
  body.set("revision", window.benchRevision || document.querySelector("input[name=revision]").value);
  const sent = Date.now();
  const response = await fetch(url, {method: "POST", body, credentials: "same-origin", headers: {
    "HX-Request": "true", "HX-Target": "game",
    "X-CSRFToken": document.querySelector("meta[name=csrf-token]").content}});
  const text = await response.text();
  const revision = text.match(/name="revision" value="(\\d+)"/);
  if (revision) window.benchRevision = revision[1];
  return [sent, response.status];
}"""


SCREEN = """(off) => {
  Object.defineProperty(document, "visibilityState", {value: off ? "hidden" : "visible", configurable: true});
  Object.defineProperty(document, "hidden", {value: off, configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


class Phone:
    """One page on the game, its DevTools session and its network."""

    def __init__(self, browser, base: str, cookie: str, game: str, network: dict,
                 held: bool = True) -> None:
        from scorekeeper.clubs.access import COOKIE

        self.context = browser.new_context(viewport={"width": 390, "height": 844},
                                           is_mobile=True, has_touch=True)
        self.context.add_cookies([{"name": COOKIE, "value": cookie, "url": base}])
        self.context.add_init_script(ANSWERED)
        self.page = self.context.new_page()
        if not held:  # as before polls were held: answered at once, asked every 2 s
            self.page.route("**/live?*", lambda route: route.continue_(
                url=route.request.url.replace("&wait=1", "")))
        self.cdp = self.context.new_cdp_session(self.page)
        self.network = network
        if network:
            self.cdp.send("Network.enable")
            self.cdp.send("Network.emulateNetworkConditions", network)
        self.page.goto(f"{base}/games/{game}")
        self.page.wait_for_selector("[data-poll]", state="attached")

    def answers(self) -> list[int]:
        return self.page.evaluate("window.liveAnswers")

    def sleep(self, asleep: bool) -> None:
        """The screen off: the poll out is lost, and so is every poll sent until the
        screen is on again (their answers never come); then the page is told."""
        if not hasattr(self, "lost"):
            self.lost: list = []
            self.page.route("**/live?*", self._poll)
        self.asleep = asleep
        if asleep:  # the poll out now is given up, the next one sent is lost
            self.page.evaluate("htmx.trigger(document.querySelector('[data-poll]'), 'htmx:abort')")
        self.page.evaluate(SCREEN, asleep)

    def _poll(self, route) -> None:
        if self.asleep:
            self.lost.append(route)  # never answered
        else:
            route.fallback()

    def offline(self, off: bool) -> None:
        base = self.network or {"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        self.cdp.send("Network.emulateNetworkConditions", {**base, "offline": off})


class Table:
    def __init__(self, scorer: Phone, watchers: list[Phone], game: str, number: int = 1) -> None:
        self.scorer, self.watchers, self.game = scorer, watchers, game
        self.number = number

    def record(self) -> int:
        """The scorer's page sends the next hand; when it sent it (ms, the page's clock)."""
        form = {"number": str(self.number), **served.PLAYED}
        sent, status = self.scorer.page.evaluate(RECORD, [f"/games/{self.game}/hands", form])
        assert status < 400, f"hand {self.number}: {status}"
        self.number += 1
        return sent

    def delays_since(self, since: float, seen: list[int], seconds: float = 60) -> list[float]:
        """Each watcher's delay (ms) from ``since`` to its next answer after ``seen``."""
        deadline = time.monotonic() + seconds
        delays: list[float | None] = [None] * len(self.watchers)
        while None in delays and time.monotonic() < deadline:
            for index, watcher in enumerate(self.watchers):
                if delays[index] is None:
                    later = [t for t in watcher.answers()[seen[index]:] if t >= since]
                    if later:
                        delays[index] = later[0] - since
            time.sleep(0.05)
        assert None not in delays, f"a watcher never had the hand: {delays}"
        return delays

    def seen(self) -> list[int]:
        return [len(watcher.answers()) for watcher in self.watchers]


def percentile(values: list[float], part: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * part))]


def show(what: str, per_hand: list[list[float]]) -> None:
    every = [d for hand in per_hand for d in hand]
    last = [max(hand) for hand in per_hand]
    print(f"{what:<34} {len(per_hand):5d} {statistics.median(every):7.0f} "
          f"{percentile(every, 0.95):7.0f} {statistics.median(last):7.0f} "
          f"{percentile(last, 0.95):7.0f}", flush=True)


def hands(table: Table, count: int, rng: random.Random) -> list[list[float]]:
    result = []
    for _ in range(count):
        time.sleep(rng.uniform(1, 3))
        seen = table.seen()
        result.append(table.delays_since(table.record(), seen))
    return result


def after(table: Table, count: int, away, back) -> list[list[float]]:
    """Hands recorded while the watchers are away (``away``), delays from ``back``."""
    result = []
    for _ in range(count):
        seen = table.seen()
        for watcher in table.watchers:
            away(watcher)
        time.sleep(4)
        table.record()
        time.sleep(4)
        since = time.time() * 1000  # (the page's Date.now(): the same clock)
        for watcher in table.watchers:
            back(watcher)
        result.append(table.delays_since(since, seen))
        time.sleep(2)
    return result


def restarts(table: Table, count: int, start, stop) -> list[list[float]]:
    result = []
    for _ in range(count):
        seen = table.seen()
        stop()
        time.sleep(5)
        start()
        result.append(table.delays_since(table.record(), seen))
        time.sleep(2)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--away", type=int, default=3, help="hands of each kind of absence")
    parser.add_argument("--latency", type=float, default=150, help="ms a round trip; 0: none")
    parser.add_argument("--down-kbps", type=float, default=1600)
    parser.add_argument("--up-kbps", type=float, default=750)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chromium", default=CHROMIUM)
    parser.add_argument("--render-threads", type=int, default=None,
                        help="the app's RENDER_THREADS (0: pages drawn on the greenlets)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    network = {"offline": False, "latency": args.latency,
               "downloadThroughput": args.down_kbps * 125, "uploadThroughput": args.up_kbps * 125
               } if args.latency else {}
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'live.sqlite'}"
        cookies = served.members(database, ["scorer"] + ["viewer"] * WATCHERS)
        env = {"DATABASE_URL": database, "SECRET_KEY": "bench",
               "PYTHONPATH": f"{served.ROOT}{os.pathsep}{folder}"}
        app = served.app_with(Path(folder), RENDER_THREADS=args.render_threads)
        port = served.free_port()
        server = [served.start(app, served.ROOT, env, args.workers, "gevent", port)[0]]

        def stop() -> None:
            served.stop(server[0])

        def start() -> None:
            server[0] = served.start(app, served.ROOT, env, args.workers, "gevent", port)[0]

        from scorekeeper.clubs.access import COOKIE
        game = served.new_game(served.Client(port, {COOKIE: cookies[0]}), 0)
        base = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=args.chromium,
                                                     args=["--no-sandbox", "--disable-gpu"])
                phones = [Phone(browser, base, cookie, game, network, held=False)
                          for cookie in cookies]
                table = Table(phones[0], phones[1:], game)
                print(f"gunicorn, {args.workers} gevent workers, 127.0.0.1; Chromium, "
                      f"{len(phones)} pages on one game; network: "
                      + (f"{args.latency:g} ms round trip, {args.down_kbps:g}/{args.up_kbps:g} "
                         "kbit/s" if network else "none emulated"))
                print(f"{'ms, hand to watcher':<34} {'hands':>5} {'p50':>7} {'p95':>7} "
                      f"{'last p50':>7} {'last p95':>7}")
                show("recorded, polls every 2 s", hands(table, args.hands, rng))
                for phone in phones:
                    phone.context.close()
                phones = [Phone(browser, base, cookie, game, network) for cookie in cookies]
                table = Table(phones[0], phones[1:], game, number=table.number)
                show("recorded, polls held", hands(table, args.hands, rng))
                show("after 8 s with no connection", after(
                    table, args.away, lambda p: p.offline(True), lambda p: p.offline(False)))
                show("just after a server restart", restarts(table, args.away, start, stop))
                show("woken, its connection lost asleep", after(
                    table, args.away, lambda p: p.sleep(True), lambda p: p.sleep(False)))
                browser.close()
        finally:
            stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
