"""How entering a hand feels on a slow phone network: taps, round trips, tap-to-paint.

    python bench/hand_entry.py                      # 5 hands, 150 ms RTT, 1.6/0.75 Mbit/s
    python bench/hand_entry.py --hands 10 --latency 300 --down-kbps 400 --up-kbps 200
    python bench/hand_entry.py --latency 0          # no network emulation at all
    python bench/hand_entry.py --json               # the figures as JSON

Serves the app on 127.0.0.1 (a fresh SQLite file in a temporary folder, CSRF on, a werkzeug
server in a process of its own, so that its work never delays this one's reading of the
screen), makes a club with the app's own `create-club` command and
becomes its owner the way a person does: Debian's Chromium (headless, through Playwright,
as a 390x844 touch phone) opens the printed owner link, types a name and taps "Join".
It starts a game on the new-game page (Ann Bob Cid Dan Eve Fay, three pairs, play to 999
so the game never ends, seat 1 dealing first), then has DevTools emulate a slow phone
network (Network.emulateNetworkConditions: 150 ms round trip, 1.6 Mbit/s down,
750 kbit/s up, by default) and enters hands the way the entry panel asks, one tap after
another, each tap as soon as the control it needs is on screen.

The taps of one hand are a plan (PLANS, chosen by --plan; by default the plan whose first
control the game page shows): each step names the control to tap by role and accessible
name, and what must be on screen before the next tap (or the tap's own visible result: a
tapped point's radio being checked). Hands vary the bidder, the bid, trump and who took
which point; all are legal played hands. For every tap it measures:

- tap-to-paint: from the click event's own timestamp in the page (a capture listener on
  the document) to the first animation frame after the step's result is on screen (a
  double requestAnimationFrame once Playwright sees it). Playwright's own round trips to
  the page are inside it, and it moves in frames (about 17 ms): a tap answered in the
  page itself measures about 45-65 ms, which is this floor, not the app;
- round trips waited for: the app's requests (resource timing, the page's own clock) that
  began after the tap and ended before that paint, counted only when what the step waits
  for was put on the page after the tap (a new element; a radio checked in place was not
  waiting, even if its preview request was quick). The 2-second live polls are not counted;
- for "Record hand N": tap to the paint after "Hand N recorded." shows.

It prints, per hand, the taps, the round trips the player waited for, the median and
worst tap-to-paint of the taps before Record, and Record to confirmed; then the medians
over the hands, each kind of step, and the emulated conditions. The emulation charges
its latency once per request, not for opening a connection (werkzeug closes every one):
a round trip here is what a phone pays on a kept-alive connection. Taps come as fast as
the page allows, faster than fingers: a point's preview request is mostly cancelled by
the next tap (the failed requests it lists). Nothing is asserted: numbers are measured.
It stops by itself and removes its temporary folder.
"""
from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.phones import CHROMIUM_ARGS, DEFAULT_CHROMIUM as CHROMIUM  # noqa: E402

PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 20_000
SEATS = {1: "Ann", 2: "Bob", 3: "Cid", 4: "Dan", 5: "Eve", 6: "Fay"}
TARGET = 999  # the game never ends

# Every click, as the page saw it: the event's own timestamp (performance.now()'s clock).
# Elements on the page before a tap are remembered, to tell a result the server sent
# (a new element) from one the page drew itself.
INIT_JS = """
window.__taps = [];
window.__benchOld = new WeakSet();
performance.setResourceTimingBufferSize(100000);
document.addEventListener('click', function (event) {
  window.__taps.push({t: event.timeStamp, seen: performance.now(), trusted: event.isTrusted,
                      tag: event.target && event.target.tagName});
}, true);
"""
BEFORE_TAP_JS = """() => {
  window.__benchOld = new WeakSet(document.querySelectorAll('*'));
  return window.__taps.length;
}"""
# Called on the element the step waits for, once Playwright sees it: the next frame but
# one (the first frame after it was painted), and whether it is new since the tap.
PAINT_JS = """(element, since) => new Promise(resolve => {
  const seen = performance.now();
  requestAnimationFrame(() => requestAnimationFrame(() => resolve({
    paint: performance.now(), seen, fresh: !window.__benchOld.has(element),
    taps: window.__taps.slice(since)})));
})"""
REQUESTS_JS = """() => performance.getEntriesByType('resource')
  .filter(e => e.initiatorType === 'xmlhttprequest' || e.initiatorType === 'fetch')
  .map(e => ({url: e.name, start: e.startTime, end: e.responseEnd,
              connect: e.connectEnd - e.connectStart, bytes: e.transferSize}))"""


# --- plans: the taps of one hand -----------------------------------------------------

@dataclass(frozen=True)
class Find:
    """A control or a sign on the page, found by role and accessible name (and text)."""
    role: str
    name: str | re.Pattern | None = None
    exact: bool = True
    within: "Find | None" = None
    text: str | None = None  # for what has no name of its own (a role="status" notice)
    label: bool = False      # a visually hidden radio: its <label> is what is tapped

    def locate(self, page):
        scope = self.within.locate(page) if self.within is not None else page
        options = {} if self.name is None else {"name": self.name, "exact": self.exact}
        found = scope.get_by_role(self.role, **options)
        if self.text is not None:
            found = found.filter(has_text=self.text)
        return found


@dataclass(frozen=True)
class Step:
    kind: str            # a short word for the tables: seat, bid, trump, point, record
    control: Find        # what is tapped
    ready: Find          # what the next tap needs, or the tap's own visible result
    ready_state: str = "visible"  # or "checked"


@dataclass(frozen=True)
class Hand:
    number: int
    bidder: int
    bid: int
    trump: str
    points: dict[str, str]  # point -> team letter, or "Tied: nobody" for Game


POINTS = ("High", "Low", "Right Bauer", "Left Bauer", "Joker", "Game")
HANDS = [  # (bidder seat, bid, trump, who took High, Low, Right, Left, Joker, Game)
    (3, 3, "Spades", "C", "C", "A", "B", "B", "C"),
    (5, 4, "Diamonds", "B", "B", "B", "A", "C", "B"),
    (6, 5, "Clubs", "C", "C", "C", "C", "B", "C"),
    (4, 3, "Hearts", "A", "B", "A", "C", "C", "Tied: nobody"),
    (2, 4, "Spades", "B", "A", "B", "B", "C", "B"),
    (1, 6, "Hearts", "A", "A", "A", "A", "A", "A"),
    (3, 4, "Clubs", "C", "A", "C", "B", "C", "C"),
]


def hand(number: int) -> Hand:
    bidder, bid, trump, *taken = HANDS[(number - 1) % len(HANDS)]
    return Hand(number, bidder, bid, trump, dict(zip(POINTS, taken)))


def one_form(hand: Hand) -> list[Step]:
    """The hand as one form: the winning bid in the bidder's row (one tap), trump, each
    point, Record. Every step before Record is shown by the page itself."""
    bid = Find("radio", f"Bid {hand.bid}", within=Find("group", SEATS[hand.bidder]), label=True)
    suit = Find("radio", hand.trump, label=True)  # "♠ Spades": the symbol is aria-hidden
    steps = [
        Step("bid", bid, Find("group", "Trump?")),
        Step("trump", suit, Find("heading", "Who took which point?")),
    ]
    return steps + points_and_record(hand)


def points_and_record(hand: Hand) -> list[Step]:
    """Each point's team (a radio checked in place), then Record."""
    steps = []
    for point, team in hand.points.items():
        # A team's radio is named by its letter, then its players ("A Ann & Dan").
        radio = Find("radio", team if len(team) > 1 else re.compile(rf"^{team}\b"),
                     exact=len(team) > 1, within=Find("group", point), label=True)
        steps.append(Step("point", radio, radio, "checked"))
    steps.append(Step("record", Find("button", f"Record hand {hand.number}"),
                      Find("status", text=f"Hand {hand.number} recorded.")))
    return steps


def stepwise(hand: Hand) -> list[Step]:
    """The entry before it was one form (a request per step), kept to measure older
    versions against: the bidder's seat, "Bid N", trump, each point, Record."""
    name = SEATS[hand.bidder]
    steps = [
        # Not the "Bid N" buttons: the auction's own are on the page until the swap lands.
        Step("seat", Find("button", name), Find("heading", f"{name} won the bid with")),
        Step("bid", Find("button", f"Bid {hand.bid}"), Find("heading", "Trump?")),
        # "♠ Spades": the symbol is aria-hidden.
        Step("trump", Find("button", hand.trump, exact=False),
             Find("heading", "Who took which point?")),
    ]
    return steps + points_and_record(hand)


PLANS: dict[str, Callable[[Hand], list[Step]]] = {"one_form": one_form, "stepwise": stepwise}


# --- the app and its owner -----------------------------------------------------------

def serve(folder: Path):
    """The app on a fresh SQLite file, served on 127.0.0.1 by a process of its own (so that
    its work never holds up this one's, which reads the phone's screen):
    (app, server, url). ``app`` is this process's own, for the command line."""
    from scorekeeper import create_app

    database_url = f"sqlite:///{folder / 'hand-entry.sqlite'}"
    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "hand-entry"})
    assert app.config.get("WTF_CSRF_ENABLED", True), "CSRF must stay on"
    spawn = multiprocessing.get_context("spawn")
    ports, connections = spawn.Queue(), spawn.Value("i", 0)
    server = spawn.Process(target=serve_here, args=(database_url, ports, connections),
                           name="hand-entry", daemon=True)
    server.start()
    server.connections = connections
    return app, server, f"http://127.0.0.1:{ports.get(timeout=60)}"


def serve_here(database_url: str, ports, connections) -> None:
    """The server's process: werkzeug, threaded, counting the connections it accepts (a
    new one costs a real phone a round trip)."""
    sys.path.insert(0, str(ROOT))
    from scorekeeper import create_app

    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "hand-entry"})
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # not a line per request
    server = make_server("127.0.0.1", 0, app, threaded=True)
    accept = server.get_request

    def counted():
        with connections.get_lock():
            connections.value += 1
        return accept()

    server.get_request = counted
    ports.put(server.server_port)
    server.serve_forever()


def owner_link(app, base: str) -> str:
    """`flask create-club` as the person running the server types it: the owner's link."""
    result = app.test_cli_runner().invoke(args=["create-club", "Bench club", "--base-url", base])
    found = re.search(r"link: (\S+)", result.output)
    if result.exit_code != 0 or not found:
        raise SystemExit(f"create-club failed: {result.output}")
    return found.group(1)


def become_owner_and_start(page, base: str, link: str) -> str:
    """Join by the owner's link, start a game on the new-game page; the game's URL."""
    from playwright.sync_api import expect

    page.goto(link)
    page.get_by_label("Your name", exact=True).fill("Ann")
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.get_by_role("link", name="Club", exact=True)).to_be_visible()
    page.goto(f"{base}/games/new")
    for seat, name in SEATS.items():
        page.get_by_role("combobox", name=f"Seat {seat}", exact=True).fill(name)
    page.get_by_label("Play to", exact=True).fill(str(TARGET))
    radio = page.get_by_role("radio", name="Seat 1 deals first", exact=True)
    radio.locator("xpath=ancestor::label[1]").click()
    expect(radio).to_be_checked()
    page.get_by_role("button", name="Start the game", exact=True).click()
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    expect(page.get_by_text(f"First team to {TARGET} wins.")).to_be_visible()
    return page.url


# --- measuring -----------------------------------------------------------------------

@dataclass
class Tap:
    hand: int
    kind: str
    tap: float           # the click event's timestamp, page clock (ms)
    paint: float         # first frame after the result was on screen
    fresh: bool          # what it waited for was put on the page after the tap
    waited: list[dict] = field(default_factory=list)      # requests it waited for
    background: list[dict] = field(default_factory=list)  # began after it, not waited for

    @property
    def ms(self) -> float:
        return self.paint - self.tap


def control_of(page, find: Find):
    located = find.locate(page)
    return located.locator("xpath=ancestor::label[1]") if find.label else located


def play_step(page, step: Step, number: int) -> Tap:
    from playwright.sync_api import expect

    control = control_of(page, step.control)
    control.wait_for(state="visible")
    since = page.evaluate(BEFORE_TAP_JS)
    control.click()
    ready = step.ready.locate(page)
    if step.ready_state == "checked":
        expect(ready).to_be_checked()
    else:
        expect(ready).to_be_visible()
    seen = ready.evaluate(PAINT_JS, since)
    if not seen["taps"]:
        raise SystemExit(f"hand {number}, {step.kind}: the page saw no click")
    return Tap(number, step.kind, seen["taps"][0]["t"], seen["paint"], seen["fresh"])


def attribute(taps: list[Tap], requests: list[dict]) -> None:
    """Which of the app's requests each tap waited for (polls are nobody's)."""
    for index, tap in enumerate(taps):
        next_tap = taps[index + 1].tap if index + 1 < len(taps) else float("inf")
        for request in requests:
            if "/live" in request["url"] or request["start"] < tap.tap:
                continue
            if tap.fresh and request["end"] <= tap.paint:
                tap.waited.append(request)
            elif request["start"] < next_tap:
                tap.background.append(request)


def emulate(context, page, latency: float, down_kbps: float, up_kbps: float) -> dict:
    if latency <= 0:
        return {"emulated": False}
    conditions = {"offline": False, "latency": latency,
                  "downloadThroughput": down_kbps * 1000 / 8,
                  "uploadThroughput": up_kbps * 1000 / 8}
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", conditions)
    return {"emulated": True, **conditions}


def run(args) -> dict:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    with tempfile.TemporaryDirectory(prefix="hand-entry-") as folder:
        app, server, base = serve(Path(folder))
        try:
            link = owner_link(app, base)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=args.chromium, headless=True, args=CHROMIUM_ARGS,
                    timeout=30_000)
                try:
                    context = browser.new_context(viewport=PHONE, is_mobile=True,
                                                  has_touch=True, device_scale_factor=2)
                    context.set_default_timeout(TIMEOUT_MS)
                    context.add_init_script(INIT_JS)
                    page = context.new_page()
                    conditions = emulate(context, page, args.latency, args.down_kbps,
                                         args.up_kbps)
                    game_url = become_owner_and_start(page, base, link)
                    connections_before = server.connections.value
                    failed: list[str] = []  # during hand entry: cancelled by a later tap?
                    page.on("requestfailed", lambda request: failed.append(
                        f"{request.method} {request.url.removeprefix(base)}: {request.failure}"))
                    plan_name = args.plan or detect_plan(page)
                    plan = PLANS[plan_name]
                    taps: list[Tap] = []
                    began = time.monotonic()
                    for number in range(1, args.hands + 1):
                        for step in plan(hand(number)):
                            taps.append(play_step(page, step, number))
                    seconds = time.monotonic() - began
                    page.wait_for_timeout(1000)  # requests still in flight land
                    requests = page.evaluate(REQUESTS_JS)
                    final_url = page.url
                    connections = server.connections.value - connections_before
                    context.close()
                finally:
                    browser.close()
        finally:
            server.terminate()
            server.join(timeout=5)
            app.extensions["db_engine"].dispose()
    for request in requests:
        request["url"] = request["url"].removeprefix(base)
    attribute(taps, requests)
    result = figures(args, plan_name, conditions, taps, requests, failed, seconds,
                     game_url.removeprefix(base), final_url.removeprefix(base))
    result["requests"]["connections_accepted"] = connections
    return result


def detect_plan(page) -> str:
    """The plan whose first control the game page shows."""
    for name, plan in PLANS.items():
        first = control_of(page, plan(hand(1))[0].control)
        if first.count() and first.first.is_visible():
            return name
    raise SystemExit(f"the game page shows the first control of no plan ({', '.join(PLANS)})")


def median(values):
    return statistics.median(values) if values else None


def figures(args, plan_name, conditions, taps, requests, failed, seconds, game_url,
            final_url) -> dict:
    hands = []
    for number in range(1, args.hands + 1):
        own = [tap for tap in taps if tap.hand == number]
        inside = [tap for tap in own if tap.kind != "record"]
        record = next(tap for tap in own if tap.kind == "record")
        hands.append({
            "hand": number, "taps": len(own),
            "round_trips": sum(len(tap.waited) for tap in own),
            "taps_waiting": sum(1 for tap in own if tap.waited),
            "median_tap_to_paint_ms": median([tap.ms for tap in inside]),
            "worst_tap_to_paint_ms": max(tap.ms for tap in inside),
            "record_to_confirmed_ms": record.ms,
            "record_bytes": sum(r["bytes"] for r in record.waited),
            "background_requests": sum(len(tap.background) for tap in own),
        })
    kinds = {}
    for kind in dict.fromkeys(tap.kind for tap in taps):
        of_kind = [tap for tap in taps if tap.kind == kind]
        kinds[kind] = {
            "taps": len(of_kind),
            "waited": sum(1 for tap in of_kind if tap.waited),
            "median_ms": median([tap.ms for tap in of_kind]),
            "worst_ms": max(tap.ms for tap in of_kind),
            "median_request_ms": median([r["end"] - r["start"]
                                         for tap in of_kind for r in tap.waited]),
            "median_bytes": median([r["bytes"] for tap in of_kind for r in tap.waited]),
        }
    polls = [r for r in requests if "/live" in r["url"]]
    worst = max((tap for tap in taps if tap.kind != "record"), key=lambda tap: tap.ms)
    return {
        "conditions": conditions, "plan": plan_name, "hands": hands, "kinds": kinds,
        "summary": {
            "taps_per_hand": median([h["taps"] for h in hands]),
            "round_trips_per_hand": median([h["round_trips"] for h in hands]),
            "median_tap_to_paint_ms": median([tap.ms for tap in taps if tap.kind != "record"]),
            "worst_tap_to_paint_ms": worst.ms,
            "worst_tap": {"hand": worst.hand, "kind": worst.kind},
            "median_record_to_confirmed_ms": median([h["record_to_confirmed_ms"] for h in hands]),
            "seconds": seconds,
        },
        "requests": {"app": len(requests) - len(polls), "polls": len(polls),
                     "new_connections": sum(1 for r in requests if r["connect"] > 0),
                     "failed": failed},
        "urls": {"game": game_url, "after_last_hand": final_url},
        "taps": [{"hand": t.hand, "kind": t.kind, "ms": round(t.ms, 1), "fresh": t.fresh,
                  "waited": [request_row(r) for r in t.waited],
                  "background": [request_row(r) for r in t.background]} for t in taps],
    }


def request_row(request: dict) -> dict:
    return {"url": request["url"], "ms": round(request["end"] - request["start"], 1),
            "bytes": request["bytes"], "new_connection": request["connect"] > 0}


def show(result: dict) -> None:
    conditions = result["conditions"]
    if conditions["emulated"]:
        print(f"emulated network: {conditions['latency']:g} ms round trip, "
              f"{conditions['downloadThroughput'] * 8 / 1000:g} kbit/s down, "
              f"{conditions['uploadThroughput'] * 8 / 1000:g} kbit/s up "
              f"(DevTools Network.emulateNetworkConditions)")
    else:
        print("no network emulation (127.0.0.1 as it is)")
    print(f"plan {result['plan']}, headless Chromium as a 390x844 touch phone, "
          f"{len(result['hands'])} hands in {result['summary']['seconds']:.1f} s")
    print(f"{'hand':>4} {'taps':>5} {'round trips':>12} {'median tap':>11} "
          f"{'worst tap':>10} {'Record to':>10}")
    print(f"{'':>4} {'':>5} {'waited':>12} {'to paint ms':>11} {'to paint':>10} "
          f"{'confirmed':>10}")
    for row in result["hands"]:
        print(f"{row['hand']:>4} {row['taps']:>5} {row['round_trips']:>12} "
              f"{row['median_tap_to_paint_ms']:>11.0f} {row['worst_tap_to_paint_ms']:>10.0f} "
              f"{row['record_to_confirmed_ms']:>10.0f}")
    summary = result["summary"]
    print(f"{'med':>4} {summary['taps_per_hand']:>5g} {summary['round_trips_per_hand']:>12g} "
          f"{summary['median_tap_to_paint_ms']:>11.0f} "
          f"{median([h['worst_tap_to_paint_ms'] for h in result['hands']]):>10.0f} "
          f"{summary['median_record_to_confirmed_ms']:>10.0f}")
    print("(tap to paint: the taps before Record; round trips: every tap's, Record's too)")
    print(f"worst tap before Record: {summary['worst_tap_to_paint_ms']:.0f} ms "
          f"(hand {summary['worst_tap']['hand']}, {summary['worst_tap']['kind']})")
    print(f"{'step':<8} {'taps':>5} {'waited':>7} {'median ms':>10} {'worst ms':>9} "
          f"{'request ms':>11} {'bytes in':>9}")
    for kind, row in result["kinds"].items():
        size = "" if row["median_bytes"] is None else f"{row['median_bytes']:.0f}"
        took = "" if row["median_request_ms"] is None else f"{row['median_request_ms']:.0f}"
        print(f"{kind:<8} {row['taps']:>5} {row['waited']:>7} {row['median_ms']:>10.0f} "
              f"{row['worst_ms']:>9.0f} {took:>11} {size:>9}")
    print("(median/worst: tap to paint; request: start to last byte of what it waited for; "
          "bytes: its transfer size, headers included)")
    requests = result["requests"]
    print(f"requests while entering hands: {requests['app']} to the app, {requests['polls']} "
          f"live polls, {requests['connections_accepted']} TCP connections accepted "
          f"(werkzeug closes each; the emulation charges its latency per request)")
    failed: dict[str, int] = {}
    for failure in requests["failed"]:
        method_path, _, why = failure.partition(": ")
        shown = f"{method_path.split('?')[0]}{'?…' if '?' in method_path else ''}: {why}"
        failed[shown] = failed.get(shown, 0) + 1
    for shown, count in failed.items():
        print(f"  {count} failed: {shown}")


def rounded(value):
    """Milliseconds to a tenth, for JSON a person reads."""
    if isinstance(value, float):
        return round(value, 1)
    if isinstance(value, dict):
        return {key: rounded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [rounded(item) for item in value]
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--latency", type=float, default=150,
                        help="round trip in ms; 0: no emulation at all")
    parser.add_argument("--down-kbps", type=float, default=1600)
    parser.add_argument("--up-kbps", type=float, default=750)
    parser.add_argument("--plan", choices=sorted(PLANS),
                        help="default: the one whose first control the game page shows")
    parser.add_argument("--chromium", default=CHROMIUM)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    result = run(args)
    if args.json:
        print(json.dumps(rounded(result), indent=2))
    else:
        show(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
