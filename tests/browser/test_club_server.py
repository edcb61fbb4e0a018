"""A club's own server, walked by a newcomer's phones as README's "Running it for a club"
sets it up: PostgreSQL, gunicorn started with the app unit's own command line and
settings, Caddy with the LAN site file (``tls internal``) and a test host name, and
phones whose Chromium trusts Caddy's authority in their own certificate store, as a
phone is told to (no certificate error is ignored, nothing in the app is set for the
test). Every form and script request goes through it: the club made, two phones in by
their links, hands recorded on both, an offline stretch with the game reloaded, the
nightly backup unit's command, and the whole server restored onto a fresh database,
where the phones are still in.
"""
from __future__ import annotations

import os
import re
import shutil

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, text

from tests.browser.club_server import HOST, ClubServer, trusting_phone, unit_command
from tests.browser.phones import PHONE, TIMEOUT_MS, wait_until
from tests.browser.table_steps import Taps, expect_scores, game_id, start_game
from tests.browser.test_play_offline import HANDS, enter, played
from tests.databases import empty_database_url, on_postgresql

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not on_postgresql(), reason="a club's server runs PostgreSQL: this "
                       "test runs where TEST_DATABASE_URL names one (.ci/run's second run)"),
    pytest.mark.skipif((shutil.which("caddy") is None or shutil.which("certutil") is None)
                       and not os.environ.get("CI"),  # .ci/run installs both
                       reason="needs Caddy and certutil (Debian's caddy, libnss3-tools)"),
]


def new_phone(chromium) -> Page:
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


def join(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page).not_to_have_url(re.compile(r"/join"))  # in: the club's games
    expect(page.get_by_role("alert")).to_have_count(0)


def owner_link(said: str) -> str:
    return re.search(rf"https://{re.escape(HOST)}:\d+/join/\S+", said).group(0)


def new_scorer_link(page: Page, base: str) -> str:
    page.goto(f"{base}/club")
    page.locator("#links label").filter(has_text="Keep score").click()
    page.get_by_role("button", name="Make a new link").click()
    card = page.get_by_role("region", name="Keep score")
    return card.locator(".link-text a").get_attribute("href")


def hands_kept(url: str, game: int) -> list[int]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return list(connection.execute(text(
                "SELECT number FROM hand WHERE game_id = :game AND undone_at IS NULL "
                "ORDER BY number"), {"game": game}).scalars())
    finally:
        engine.dispose()


def offline(page: Page, server: ClubServer, gone: bool) -> None:
    """The phone's connection gone (or back): Caddy stopped, and the browser offline
    both ways it can be (the context's, and the network emulation's)."""
    if gone:
        server.stop_caddy()
    else:
        server.start_caddy()
        server.wait_until_healthy()
    page.context.set_offline(gone)
    if not hasattr(page, "cdp"):  # one session: another's emulation would stay
        page.cdp = page.context.new_cdp_session(page)
        page.cdp.send("Network.enable")
    page.cdp.send("Network.emulateNetworkConditions", {
        "offline": gone, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


@pytest.fixture
def server(tmp_path):
    club_server = ClubServer(tmp_path, empty_database_url(tmp_path)).start()
    yield club_server
    club_server.stop()


def test_a_newcomers_club_night_on_its_own_server_over_https(server, browser, tmp_path):
    made = server.flask("create-club", "Thursday club", "--base-url", server.base)
    assert made.returncode == 0, made.stderr
    chromium = trusting_phone(browser, server, tmp_path / "phone")
    try:
        owner, scorer = new_phone(chromium), new_phone(chromium)
        join(owner, owner_link(made.stdout), "Ann")  # the first form over HTTPS
        assert owner.evaluate("window.isSecureContext")
        join(scorer, new_scorer_link(owner, server.base), "Bob")

        taps = Taps()
        start_game(owner, server.base, taps, target=15)
        game_url, game = owner.url, game_id(owner)
        enter(owner, taps, HANDS[0], 1)
        expect_scores(owner, played(HANDS[:1]).scores)
        scorer.goto(game_url)
        enter(scorer, Taps(), HANDS[1], 2)
        expect_scores(scorer, played(HANDS[:2]).scores)
        expect_scores(owner, played(HANDS[:2]).scores)  # live, through the proxy

        owner.evaluate("navigator.serviceWorker.ready.then(() => true)")
        owner.reload()
        wait_until(owner, "() => navigator.serviceWorker.controller !== null")
        offline(owner, server, gone=True)
        owner.reload()  # the service worker's copy of the game
        for number in (3, 4, 5):
            enter(owner, taps, HANDS[number - 1], number)
        expect_scores(owner, played(HANDS[:5]).scores)
        assert hands_kept(server.database_url, game) == [1, 2]
        offline(owner, server, gone=False)
        wait_until(owner, "() => !localStorage.getItem('scorekeeper.outbox')", 60)
        assert hands_kept(server.database_url, game) == [1, 2, 3, 4, 5]
        expect_scores(scorer, played(HANDS[:5]).scores)

        backed_up = server.run(unit_command("scorekeeper-backup.service", server.folder),
                               unit="scorekeeper-backup.service")
        assert backed_up.returncode == 0, backed_up.stderr
        backups = sorted((server.folder / "backups").iterdir())
        assert backups, backed_up.stdout

        server.stop_app()  # a fresh machine: an empty database, the backup folder, the env
        server.database_url = empty_database_url(tmp_path)
        restored = server.flask("restore-all", str(server.folder / "backups"))
        assert restored.returncode == 0, restored.stderr
        server.start_app()
        server.wait_until_healthy()
        owner.goto(game_url)  # still in: the phone's device came back with the club
        expect_scores(owner, played(HANDS[:5]).scores)
        scorer.goto(game_url)
        enter(scorer, Taps(), HANDS[5], 6)
        expect_scores(scorer, played(HANDS[:6]).scores)
        assert hands_kept(server.database_url, game) == [1, 2, 3, 4, 5, 6]
    finally:
        chromium.close()
