"""How entering a hand feels on a slow phone network: taps, round trips, tap-to-paint.

    python bench/hand_entry.py                      # 5 hands, 150 ms RTT, 1.6/0.75 Mbit/s
    python bench/hand_entry.py --hands 10 --latency 300 --down-kbps 400 --up-kbps 200
    python bench/hand_entry.py --latency 0          # no network emulation at all
    python bench/hand_entry.py --offline-hands 0    # no hands with no connection
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
another, each tap as soon as the control it needs is on screen. Then, on the same phone
in the same game, once the page has loaded its offline scripts (offline.js, the rules),
DevTools cuts the connection (the same call, offline: true) and 5 more hands (--offline-hands) are
entered the same way: the phone keeps each one and draws the next hand's entry itself (the
script checks that it says which hands it keeps, "Hand 6 is on this phone only…"). Then
the same network comes back: the phone sends the hands it kept, one after another.

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
- round trips waited for: the app's requests (resource timing, the page's own clock, failed
  ones too) that began after the tap and ended before what the step waits for was put on
  the page (a MutationObserver: a new element, or its text changed, after the tap; a radio
  checked in place was not waiting, even if its preview request was quick; a request the
  page makes once it has drawn the result was not waited for either). The 2-second live
  polls are not counted;
- for "Record hand N": tap to the paint after "Hand N recorded" shows; with no connection,
  tap to the paint of the next hand's heading, "Hand N+1".

It prints, per hand, the taps, the round trips the player waited for, the median and
worst tap-to-paint of the taps before Record, and Record to confirmed; then the medians
over the hands, each kind of step, and the emulated conditions. The same for the hands
with no connection (Record to the next hand's entry instead of to confirmed), the
requests the page tried meanwhile and those that failed, then the time from the page hearing
"online" to its outbox emptied (every kept hand confirmed by the server; watched in the
page every few ms), and the requests that sent them. It checks that the server held none
of them before, and after holds every hand once, none undone, and the scores the phone
showed. Last, online and offline side by side: the medians, and offline/online for the
times. The emulation charges its latency once per request, not for opening a connection
(werkzeug closes every one): a round trip here is what a phone pays on a kept-alive
connection. Taps come as fast as the page allows, faster than fingers: a point's preview
request is mostly cancelled by the next tap (the failed requests it lists). Nothing is
asserted of the numbers: they are measured (a check that fails stops it, and says why).
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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.phones import CHROMIUM_ARGS, OFFLINE_SCRIPT, DEFAULT_CHROMIUM as CHROMIUM  # noqa: E402

PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 20_000
SEATS = {1: "Ann", 2: "Bob", 3: "Cid", 4: "Dan", 5: "Eve", 6: "Fay"}
TARGET = 999  # the game never ends

# Every click, as the page saw it: the event's own timestamp (performance.now()'s clock).
# What changes on the page after a tap is noted (a MutationObserver: elements put in, text
# changed), with when the change was made, to tell a result that came after a request
# from one the page drew before or without it. And when the page heard "online".
INIT_JS = """
window.__taps = [];
window.__changes = [];
window.__online = [];
performance.setResourceTimingBufferSize(100000);
document.addEventListener('click', function (event) {
  window.__taps.push({t: event.timeStamp, seen: performance.now(), trusted: event.isTrusted,
                      tag: event.target && event.target.tagName});
}, true);
addEventListener('online', function (event) { window.__online.push(event.timeStamp); });
new MutationObserver(function (records) {
  window.__changes.push({t: performance.now(), records: records});
}).observe(document, {childList: true, characterData: true, subtree: true});
"""
BEFORE_TAP_JS = """() => {
  window.__changes = [];
  return window.__taps.length;
}"""
# Called on the element the step waits for, once Playwright sees it: the next frame but
# one (the first frame after it was painted), and when it was first put on the page (or
# its text changed) after the tap: null if it was there, as it is, before.
PAINT_JS = """(element, since) => new Promise(resolve => {
  const seen = performance.now(), taps = window.__taps.slice(since);
  const after = taps.length ? taps[0].t : Infinity;
  const touches = r => r.target === element || element.contains(r.target)
    || [...r.addedNodes].some(node => node === element || node.contains(element));
  const change = window.__changes.find(c => c.t >= after && c.records.some(touches));
  requestAnimationFrame(() => requestAnimationFrame(() => resolve({
    paint: performance.now(), seen, appeared: change ? change.t : null, taps})));
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
                      Find("status", text=f"Hand {hand.number} recorded")))
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


def with_no_connection(steps: list[Step], number: int) -> list[Step]:
    """The same taps on a phone with no connection: Record is answered by the phone itself,
    with the next hand's entry (its heading, "Hand N+1")."""
    *entry, record = steps
    return entry + [replace(record, ready=Find("heading", f"Hand {number + 1}"))]


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
    tap: float               # the click event's timestamp, page clock (ms)
    paint: float             # first frame after the result was on screen
    appeared: float | None   # when the result was put on the page (or its text changed)
                             # after the tap; None: it was there before, as it is
    waited: list[dict] = field(default_factory=list)      # requests it waited for
    background: list[dict] = field(default_factory=list)  # began after it, not waited for

    @property
    def fresh(self) -> bool:
        return self.appeared is not None

    @property
    def ms(self) -> float:
        return self.paint - self.tap


@dataclass
class Phone:
    """The page, its DevTools session, the network it emulates (DevTools' own terms), and
    the requests that failed, by the part of the run they failed in."""
    page: object
    cdp: object
    network: dict
    part: str = "online"
    failed: dict[str, list[str]] = field(
        default_factory=lambda: {"online": [], "offline": [], "back": []})


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
    return Tap(number, step.kind, seen["taps"][0]["t"], seen["paint"], seen["appeared"])


def play_hands(page, plan, numbers: list[int], offline: bool = False) -> tuple[list[Tap], float]:
    """The hands' taps, one after another; with ``offline``, each hand's Record answered by
    the phone, which then says it keeps the hands (checked, after the hand's taps)."""
    taps, began = [], time.monotonic()
    for number in numbers:
        steps = plan(hand(number))
        for step in with_no_connection(steps, number) if offline else steps:
            taps.append(play_step(page, step, number))
        if offline:
            check_said(page, numbers[0], number)
    return taps, time.monotonic() - began


def check_said(page, first: int, last: int) -> None:
    """The phone says which hands it keeps, and lists them as on this phone only."""
    from playwright.sync_api import expect

    kept = f"Hand {first} is" if first == last else f"Hands {first}–{last} are"
    expect(page.locator(".on-phone")).to_contain_text(f"{kept} on this phone only")
    expect(page.locator("#deals li.unsent")).to_have_count(last - first + 1)


def attribute(taps: list[Tap], requests: list[dict]) -> None:
    """Which of the app's requests each tap waited for: begun after the tap, ended before
    its result was put on the page (polls are nobody's)."""
    for index, tap in enumerate(taps):
        next_tap = taps[index + 1].tap if index + 1 < len(taps) else float("inf")
        for request in requests:
            if "/live" in request["url"] or request["start"] < tap.tap:
                continue
            if tap.fresh and request["end"] <= tap.appeared:
                tap.waited.append(request)
            elif request["start"] < next_tap:
                tap.background.append(request)


NO_EMULATION = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


def emulate(context, page, args) -> tuple[object, dict]:
    """A DevTools session on the page, and the network it emulates (none for --latency 0)."""
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    if args.latency <= 0:
        return cdp, dict(NO_EMULATION)
    network = {"offline": False, "latency": args.latency,
               "downloadThroughput": args.down_kbps * 1000 / 8,
               "uploadThroughput": args.up_kbps * 1000 / 8}
    cdp.send("Network.emulateNetworkConditions", network)
    return cdp, network


def until(page, script: str, seconds: float, why: str) -> None:
    """``script`` asked of the page every 20 ms until it is true; else stop, saying ``why``."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(script):
        if time.monotonic() > deadline:
            raise SystemExit(why)
        page.wait_for_timeout(20)


# The outbox watched in the page every few ms: when it was emptied, on the page's clock.
WATCH_OUTBOX_JS = """() => {
  window.__outboxGone = null;
  const timer = setInterval(() => {
    if (localStorage.getItem('scorekeeper.outbox') === null) {
      window.__outboxGone = performance.now();
      clearInterval(timer);
    }
  }, 1);
}"""
KEPT_JS = "() => (JSON.parse(localStorage.getItem('scorekeeper.outbox')) || []).length"


def go_offline(phone: Phone) -> float:
    """No connection, as DevTools cuts it, once the page has its offline scripts (loaded
    after the page's load event): the moment, on the page's clock."""
    until(phone.page, f"() => {OFFLINE_SCRIPT}", TIMEOUT_MS / 1000,
          "the page never loaded its offline scripts (offline.js): try --offline-hands 0")
    phone.cdp.send("Network.emulateNetworkConditions", {**phone.network, "offline": True})
    until(phone.page, "() => navigator.onLine === false", 5, "the page never went offline")
    phone.part = "offline"
    return phone.page.evaluate("performance.now()")


def reconnect(phone: Phone) -> tuple[float, float]:
    """The same network back: when the page heard "online" and when its outbox emptied
    (every kept hand confirmed by the server), on the page's clock."""
    phone.page.evaluate(WATCH_OUTBOX_JS)
    phone.part = "back"
    phone.cdp.send("Network.emulateNetworkConditions", phone.network)
    until(phone.page, "() => window.__outboxGone !== null", 60,
          "the hands kept on the phone were not all confirmed within 60 s")
    heard, gone = phone.page.evaluate("() => [window.__online.at(-1), window.__outboxGone]")
    if heard is None:
        raise SystemExit('the page never heard "online"')
    return heard, gone


def stored_hands(app, game_id: int) -> list[tuple[int, str | None, bool]]:
    """Every hand row the server holds for the game, undone ones too: (number, trump,
    undone), in the order they were written."""
    from sqlmodel import Session, select

    from scorekeeper.store.models import Hand as Row

    with Session(app.extensions["db_engine"]) as session:
        rows = session.exec(select(Row).where(Row.game_id == game_id).order_by(Row.id))
        return [(row.number, row.trump, row.undone_at is not None) for row in rows]


def check_stored(app, game_id: int, upto: int) -> None:
    """The server holds hands 1..upto, each once, none undone, each with its own trump."""
    stored = stored_hands(app, game_id)
    wanted = [(n, hand(n).trump.lower(), False) for n in range(1, upto + 1)]
    if [(n, (trump or "").lower(), undone) for n, trump, undone in stored] != wanted:
        raise SystemExit(f"the server holds {stored}, not hands 1-{upto} once each")


def online_hands(phone: Phone, server, plan, args) -> dict:
    connections_before = server.connections.value
    taps, seconds = play_hands(phone.page, plan, list(range(1, args.hands + 1)))
    phone.page.wait_for_timeout(1000)  # requests still in flight land
    return {"taps": taps, "seconds": seconds, "final_url": phone.page.url,
            "connections": server.connections.value - connections_before}


def offline_hands(phone: Phone, app, game_id: int, plan, args) -> dict:
    """--offline-hands hands with no connection, then the connection back until the server
    has confirmed them all."""
    went = go_offline(phone)
    numbers = list(range(args.hands + 1, args.hands + args.offline_hands + 1))
    taps, seconds = play_hands(phone.page, plan, numbers, offline=True)
    shown = check_kept(phone.page, app, game_id, numbers)
    heard, gone = reconnect(phone)
    check_sent(phone.page, app, game_id, numbers, shown)
    phone.page.wait_for_timeout(1000)  # requests still in flight land
    return {"taps": taps, "seconds": seconds, "numbers": numbers, "went": went,
            "heard": heard, "gone": gone}


def check_kept(page, app, game_id: int, numbers: list[int]) -> list[str]:
    """The hands are on the phone, none on the server yet: the scores the phone shows."""
    check_stored(app, game_id, numbers[0] - 1)
    kept = page.evaluate(KEPT_JS)
    if kept != len(numbers):
        raise SystemExit(f"the phone keeps {kept} hands, not {len(numbers)}")
    return page.locator(".scores .team-score").all_inner_texts()


def check_sent(page, app, game_id: int, numbers: list[int], shown: list[str]) -> None:
    """The server holds every hand once, and its scores are those the phone showed."""
    from playwright.sync_api import expect

    expect(page.locator("#deals li.unsent")).to_have_count(0)
    expect(page.get_by_role("heading", name=f"Hand {numbers[-1] + 1}")).to_be_visible()
    check_stored(app, game_id, numbers[-1])
    scores = page.locator(".scores .team-score").all_inner_texts()
    if scores != shown:
        raise SystemExit(f"the phone showed the scores {shown} offline, the server has {scores}")


def on_the_phone(browser, app, server, base: str, link: str, args) -> dict:
    """Everything measured on the phone: the hands online, then those with no connection."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(INIT_JS)
    page = context.new_page()
    phone = Phone(page, *emulate(context, page, args))
    game_url = become_owner_and_start(page, base, link)
    page.on("requestfailed", lambda request: phone.failed[phone.part].append(
        f"{request.method} {request.url.removeprefix(base)}: {request.failure}"))
    plan_name = args.plan or detect_plan(page)
    seen = {"plan": plan_name, "network": phone.network, "failed": phone.failed,
            "game_url": game_url.removeprefix(base),
            **online_hands(phone, server, PLANS[plan_name], args)}
    if args.offline_hands:
        game_id = int(re.search(r"/games/(\d+)", game_url).group(1))
        seen["offline"] = offline_hands(phone, app, game_id, PLANS[plan_name], args)
    seen["requests"] = page.evaluate(REQUESTS_JS)
    for request in seen["requests"]:
        request["url"] = request["url"].removeprefix(base)
    context.close()
    return seen


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
                    seen = on_the_phone(browser, app, server, base, link, args)
                finally:
                    browser.close()
        finally:
            server.terminate()
            server.join(timeout=5)
            app.extensions["db_engine"].dispose()
    return results(args, seen)


def detect_plan(page) -> str:
    """The plan whose first control the game page shows."""
    for name, plan in PLANS.items():
        first = control_of(page, plan(hand(1))[0].control)
        if first.count() and first.first.is_visible():
            return name
    raise SystemExit(f"the game page shows the first control of no plan ({', '.join(PLANS)})")


def median(values):
    return statistics.median(values) if values else None


def results(args, seen: dict) -> dict:
    """The online figures, and the offline ones beside them (under "offline")."""
    requests, offline = seen["requests"], seen.get("offline")
    went = offline["went"] if offline else float("inf")
    online = [r for r in requests if r["start"] < went]
    attribute(seen["taps"], online)
    emulated = args.latency > 0
    conditions = {"emulated": True, **seen["network"]} if emulated else {"emulated": False}
    result = figures(seen["plan"], conditions, seen["taps"], online, seen["failed"]["online"],
                     seen["seconds"], seen["game_url"], seen["final_url"])
    result["requests"]["connections_accepted"] = seen["connections"]
    if offline:
        result["offline"] = offline_figures(offline, requests, seen["failed"])
    return result


def hand_rows(taps: list[Tap], record_key: str) -> list[dict]:
    hands = []
    for number in dict.fromkeys(tap.hand for tap in taps):
        own = [tap for tap in taps if tap.hand == number]
        inside = [tap for tap in own if tap.kind != "record"]
        record = next(tap for tap in own if tap.kind == "record")
        hands.append({
            "hand": number, "taps": len(own),
            "round_trips": sum(len(tap.waited) for tap in own),
            "taps_waiting": sum(1 for tap in own if tap.waited),
            "median_tap_to_paint_ms": median([tap.ms for tap in inside]),
            "worst_tap_to_paint_ms": max(tap.ms for tap in inside),
            record_key: record.ms,
            "record_bytes": sum(r["bytes"] for r in record.waited),
            "background_requests": sum(len(tap.background) for tap in own),
        })
    return hands


def kind_rows(taps: list[Tap]) -> dict:
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
    return kinds


def summary_of(taps: list[Tap], hands: list[dict], record_key: str, seconds: float) -> dict:
    worst = max((tap for tap in taps if tap.kind != "record"), key=lambda tap: tap.ms)
    return {
        "taps_per_hand": median([h["taps"] for h in hands]),
        "round_trips_per_hand": median([h["round_trips"] for h in hands]),
        "median_tap_to_paint_ms": median([tap.ms for tap in taps if tap.kind != "record"]),
        "worst_tap_to_paint_ms": worst.ms,
        "worst_tap": {"hand": worst.hand, "kind": worst.kind},
        f"median_{record_key}": median([h[record_key] for h in hands]),
        "seconds": seconds,
    }


def request_counts(requests: list[dict], failed: list[str]) -> dict:
    polls = [r for r in requests if "/live" in r["url"]]
    return {"app": len(requests) - len(polls), "polls": len(polls),
            "new_connections": sum(1 for r in requests if r["connect"] > 0),
            "failed": failed}


def figures(plan_name, conditions, taps, requests, failed, seconds, game_url,
            final_url) -> dict:
    hands = hand_rows(taps, "record_to_confirmed_ms")
    return {
        "conditions": conditions, "plan": plan_name, "hands": hands, "kinds": kind_rows(taps),
        "summary": summary_of(taps, hands, "record_to_confirmed_ms", seconds),
        "requests": request_counts(requests, failed),
        "urls": {"game": game_url, "after_last_hand": final_url},
        "taps": tap_rows(taps),
    }


def offline_figures(offline: dict, requests: list[dict], failed: dict) -> dict:
    taps = offline["taps"]
    during = [r for r in requests if offline["went"] <= r["start"] < offline["heard"]]
    attribute(taps, during)
    hands = hand_rows(taps, "record_to_next_entry_ms")
    return {
        "hands": hands, "kinds": kind_rows(taps),
        "summary": summary_of(taps, hands, "record_to_next_entry_ms", offline["seconds"]),
        "requests": request_counts(during, failed["offline"]),
        "back_online": back_online(offline, requests, failed["back"]),
        "taps": tap_rows(taps),
    }


def back_online(offline: dict, requests: list[dict], failed: list[str]) -> dict:
    """From the page's "online" to its outbox emptied, and the hands' requests meanwhile."""
    sent = [r for r in requests if r["start"] >= offline["heard"] and r["url"].endswith("/hands")]
    return {
        "hands": offline["numbers"], "confirmed_ms": offline["gone"] - offline["heard"],
        "requests": len(sent),
        "first_sent_after_ms": sent[0]["start"] - offline["heard"] if sent else None,
        "median_request_ms": median([r["end"] - r["start"] for r in sent]),
        "one_at_a_time": all(b["start"] >= a["end"] for a, b in zip(sent, sent[1:])),
        "failed": failed,
    }


def tap_rows(taps: list[Tap]) -> list[dict]:
    return [{"hand": t.hand, "kind": t.kind, "ms": round(t.ms, 1), "fresh": t.fresh,
             "waited": [request_row(r) for r in t.waited],
             "background": [request_row(r) for r in t.background]} for t in taps]


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
    show_hands(result["hands"], result["summary"], "confirmed")
    show_kinds(result["kinds"])
    requests = result["requests"]
    print(f"requests while entering hands: {requests['app']} to the app, {requests['polls']} "
          f"live polls, {requests['connections_accepted']} TCP connections accepted "
          f"(werkzeug closes each; the emulation charges its latency per request)")
    show_failed(requests["failed"])
    if "offline" in result:
        show_offline(result["offline"])
        show_side_by_side(result)


def show_hands(hands: list[dict], summary: dict, record_to: str) -> None:
    key = f"record_to_{record_to.replace(' ', '_')}_ms"
    print(f"{'hand':>4} {'taps':>5} {'round trips':>12} {'median tap':>11} "
          f"{'worst tap':>10} {'Record to':>10}")
    print(f"{'':>4} {'':>5} {'waited':>12} {'to paint ms':>11} {'to paint':>10} "
          f"{record_to:>10}")
    for row in hands:
        print(f"{row['hand']:>4} {row['taps']:>5} {row['round_trips']:>12} "
              f"{row['median_tap_to_paint_ms']:>11.0f} {row['worst_tap_to_paint_ms']:>10.0f} "
              f"{row[key]:>10.0f}")
    print(f"{'med':>4} {summary['taps_per_hand']:>5g} {summary['round_trips_per_hand']:>12g} "
          f"{summary['median_tap_to_paint_ms']:>11.0f} "
          f"{median([h['worst_tap_to_paint_ms'] for h in hands]):>10.0f} "
          f"{summary[f'median_{key}']:>10.0f}")
    print("(tap to paint: the taps before Record; round trips: every tap's, Record's too)")
    print(f"worst tap before Record: {summary['worst_tap_to_paint_ms']:.0f} ms "
          f"(hand {summary['worst_tap']['hand']}, {summary['worst_tap']['kind']})")


def show_kinds(kinds: dict) -> None:
    print(f"{'step':<8} {'taps':>5} {'waited':>7} {'median ms':>10} {'worst ms':>9} "
          f"{'request ms':>11} {'bytes in':>9}")
    for kind, row in kinds.items():
        size = "" if row["median_bytes"] is None else f"{row['median_bytes']:.0f}"
        took = "" if row["median_request_ms"] is None else f"{row['median_request_ms']:.0f}"
        print(f"{kind:<8} {row['taps']:>5} {row['waited']:>7} {row['median_ms']:>10.0f} "
              f"{row['worst_ms']:>9.0f} {took:>11} {size:>9}")
    print("(median/worst: tap to paint; request: start to last byte of what it waited for; "
          "bytes: its transfer size, headers included)")


def show_failed(failures: list[str]) -> None:
    failed: dict[str, int] = {}
    for failure in failures:
        method_path, _, why = failure.partition(": ")
        shown = f"{method_path.split('?')[0]}{'?…' if '?' in method_path else ''}: {why}"
        failed[shown] = failed.get(shown, 0) + 1
    for shown, count in failed.items():
        print(f"  {count} failed: {shown}")


def show_offline(offline: dict) -> None:
    hands = [row["hand"] for row in offline["hands"]]
    print()
    print(f"with no connection (DevTools offline), the same phone and game: hands "
          f"{hands[0]}–{hands[-1]} in {offline['summary']['seconds']:.1f} s")
    show_hands(offline["hands"], offline["summary"], "next entry")
    print('(Record to next entry: tap to the paint of the next hand\'s heading, "Hand N+1")')
    show_kinds(offline["kinds"])
    requests = offline["requests"]
    print(f"requests while offline: {requests['app']} to the app, {requests['polls']} "
          f"live polls; {len(requests['failed'])} of them failed:")
    show_failed(requests["failed"])
    back = offline["back_online"]
    first = "" if back["first_sent_after_ms"] is None else \
        f", the first sent {back['first_sent_after_ms']:.0f} ms after it"
    print(f'back online: hands {hands[0]}–{hands[-1]} confirmed by the server '
          f'{back["confirmed_ms"]:.0f} ms after the page heard "online" (the phone\'s '
          f'outbox empty), {back["confirmed_ms"] / len(hands):.0f} ms a hand')
    print(f"  {back['requests']} requests to record them, "
          f"{'one after another' if back['one_at_a_time'] else 'some at once'}, "
          f"median {back['median_request_ms']:.0f} ms each{first}; the server holds "
          f"hands 1–{hands[-1]}, each once, and the scores the phone showed offline")
    show_failed(back["failed"])


def show_side_by_side(result: dict) -> None:
    online, offline = result["summary"], result["offline"]["summary"]
    rows = [
        ("taps per hand", online["taps_per_hand"], offline["taps_per_hand"], False),
        ("round trips waited per hand", online["round_trips_per_hand"],
         offline["round_trips_per_hand"], False),
        ("tap to paint, taps before Record, ms", online["median_tap_to_paint_ms"],
         offline["median_tap_to_paint_ms"], True),
        ("Record to the next hand's entry, ms", online["median_record_to_confirmed_ms"],
         offline["median_record_to_next_entry_ms"], True),
    ]
    print()
    print(f"{'medians over the hands':<38} {'online':>7} {'offline':>8} {'offline/online':>15}")
    for label, was, now, timed in rows:
        print(f"{label:<38} " + (f"{was:>7.0f} {now:>8.0f} {now / was:>15.2f}" if timed and was
                                 else f"{was:>7g} {now:>8g}"))
    print('(online, Record waits for the server\'s answer, "Hand N recorded", which brings the '
          "next hand's entry; offline, the phone draws it)")
    confirmed = result["offline"]["back_online"]["confirmed_ms"] / len(result["offline"]["hands"])
    print(f"{'confirmed by the server, ms a hand':<38} "
          f"{online['median_record_to_confirmed_ms']:>7.0f} {confirmed:>8.0f} "
          f"{confirmed / online['median_record_to_confirmed_ms']:>15.2f}")
    print("(offline: from reconnect to all confirmed, divided by the hands; online: Record "
          "to confirmed)")


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
    parser.add_argument("--offline-hands", type=int, default=5,
                        help="hands then entered with no connection; 0: none")
    parser.add_argument("--plan", choices=sorted(PLANS),
                        help="default: the one whose first control the game page shows")
    parser.add_argument("--chromium", default=CHROMIUM)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    if args.offline_hands < 0:
        parser.error("--offline-hands must be at least 0")
    if args.offline_hands and args.plan == "stepwise":
        parser.error("--plan stepwise asks the server at each step: use --offline-hands 0")
    result = run(args)
    if args.json:
        print(json.dumps(rounded(result), indent=2))
    else:
        show(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
