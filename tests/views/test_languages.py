"""Six languages: complete catalogues, the language a page speaks, and no English left.

The catalogue tests fail when a message extracted from the code and templates has no
translation (or a fuzzy one) in any language, when placeholders differ, or when the
compiled catalogues shipped beside the sources are out of date.
"""
from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from scorekeeper.web.languages import LANGUAGES, page_digits
from tests.views.view_helpers import Page

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = ROOT / "scorekeeper" / "translations"
TRANSLATED = [code for code in LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def catalogue(language: str):
    with open(CATALOGUES / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=language)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """The messages in the code and templates now, extracted afresh."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F",
                    str(ROOT / "babel.cfg"), "-k", "_l", "-o", str(pot), str(ROOT)],
                   check=True, capture_output=True, cwd=ROOT)
    with open(pot, "rb") as file:
        return {message.id for message in read_po(file) if message.id}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(language, extracted):
    translations = {message.id: message for message in catalogue(language) if message.id}
    missing = sorted(str(m) for m in extracted if m not in translations)
    assert missing == [], f"{language}: not in the catalogue (run pybabel update)"
    for message_id in extracted:
        message = translations[message_id]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{language}: untranslated: {message_id!r}"
        assert not message.fuzzy, f"{language}: fuzzy: {message_id!r}"
        wanted = set(PLACEHOLDER.findall(" ".join(message_id if isinstance(message_id, tuple)
                                                  else (message_id,))))
        for string in strings:
            assert set(PLACEHOLDER.findall(string)) <= wanted, (language, message_id, string)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_shipped_compiled_catalogue_matches_its_source(language):
    """A fresh install reads the .mo files as they are: no pybabel compile needed."""
    def pairs(messages):
        plain = lambda value: tuple(value) if isinstance(value, (list, tuple)) else value  # noqa: E731
        return {plain(m.id): plain(m.string) for m in messages if m.id}

    with open(CATALOGUES / language / "LC_MESSAGES" / "messages.mo", "rb") as mo:
        shipped = pairs(read_mo(mo))
    source = pairs(m for m in catalogue(language) if not m.fuzzy)
    assert shipped == source, f"{language}: run pybabel compile -d scorekeeper/translations"


def test_slovak_has_three_plural_forms_and_uses_them(client, start_game):
    plural = catalogue("sk").plural_expr
    assert "n >= 2 && n <= 4" in plural
    client.set_cookie("lang", "sk")
    start_game()
    text = client.get("/").text
    assert 'lang="sk"' in text


# --- which language a page speaks -----------------------------------------------------

def html_tag(response) -> str:
    """The page's <html> tag as far as language goes (its addresses for app.js left out)."""
    tag = re.search(r"<html[^>]*>", response.text).group(0)
    return re.sub(r' data-(sw|healthz)="[^"]*"', "", tag)


def test_english_unless_the_browser_or_the_device_says_otherwise(client):
    assert html_tag(client.get("/")) == '<html lang="en" dir="ltr">'
    assert html_tag(client.get("/", headers={"Accept-Language": "te-IN,te;q=0.9,en;q=0.5"})) \
        == '<html lang="te" dir="ltr">'
    assert html_tag(client.get("/", headers={"Accept-Language": "de-CH,fr"})) == \
        '<html lang="en" dir="ltr">'
    client.set_cookie("lang", "fa")
    tag = html_tag(client.get("/", headers={"Accept-Language": "sk"}))
    assert tag.startswith('<html lang="fa" dir="rtl" data-written="'), tag
    # The page's script writes Persian's digits and marks as the server does.
    written = json.loads(html.unescape(tag.split('data-written="')[1].rstrip('">')))
    assert written == {**dict(zip("0123456789", "۰۱۲۳۴۵۶۷۸۹")), ",": "،", "%": "٪", "·": "•"}


def test_the_picker_lists_each_language_in_its_own_name_and_remembers_the_choice(client):
    page = client.get("/evenings").text
    for code, name in LANGUAGES.items():
        assert f'<button type="submit" name="lang" value="{code}" lang="{code}"' in page
        assert f">{name}</button>" in page
    response = client.post("/language", data={"lang": "lo", "next": "/evenings?page=1"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/evenings?page=1"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=lo;") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert html_tag(client.get("/evenings")) == '<html lang="lo" dir="ltr">'


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:x"])
def test_the_picker_never_sends_anyone_elsewhere(client, target):
    response = client.post("/language", data={"lang": "sk", "next": target})
    assert response.headers["Location"] == "/"


def test_a_language_we_do_not_speak_changes_nothing(client):
    response = client.post("/language", data={"lang": "de", "next": "/"})
    assert "Set-Cookie" not in response.headers or "lang=" not in response.headers["Set-Cookie"]


# --- Persian: digits and direction -----------------------------------------------------

def test_persian_pages_show_persian_digits_in_text_never_in_addresses(client, start_game, play):
    game = start_game()
    play(game, 1, "pass,4,pass,pass,pass,pass", "hearts", "ABBCC", "A")
    client.set_cookie("lang", "fa")
    html = client.get(f"/games/{game}").text
    scores = re.findall(r'class="team-score"[^>]*>([^<]*)<', html)
    assert scores == ["۲", "۲", "\u200e−۴"]  # the minus sign kept on the left of the number
    assert f'href="/games/{game}/hands/1/edit"' in html  # addresses keep 0-9
    assert re.search(r'hx-get="/games/1/live\?v=\d+', html)


def test_a_persian_page_writes_its_own_percent_sign(client, start_game, play):
    game = start_game()
    play(game, 1, "pass,4,pass,pass,pass,pass", "hearts", "ABBCC", "A")
    client.set_cookie("lang", "fa")
    page = Page(client.get(f"/games/{game}"))  # the chances to win, in per cent
    assert re.search(r"[۰-۹]+\s?٪", page.section_text("chances")) and "%" not in page.text


def test_page_digits_touch_text_only():
    html = '<a href="/games/12" data-n="3">Hand 12</a><span>−4</span>'
    assert page_digits(html, "fa") == '<a href="/games/12" data-n="3">Hand ۱۲</a><span>−۴</span>'
    # Persian commas, and a dot that can't be taken for its zero.
    assert page_digits("<p>A 2, B 0 · C</p>", "fa") == "<p>A ۲، B ۰ • C</p>"
    # ... and its own percent sign, as CLDR writes it (Babel's Persian gives a Latin one).
    assert page_digits("<p>A 12%, B 7 %</p>", "fa") == "<p>A ۱۲٪، B ۷ ٪</p>"
    assert page_digits(html, "sk") == html
    # A fragment that is a bare sentence is prose too, from its first letter to its last.
    assert page_digits("B bid 4, took 2: <bdi>A +2</bdi>, C +2.", "fa") == \
        "B bid ۴، took ۲: <bdi>A +۲</bdi>، C +۲."
    # Character references stay whole.
    assert page_digits("<b>O&#39;Neil 2</b>", "fa") == "<b>O&#39;Neil ۲</b>"


@pytest.mark.parametrize("kept", [
    '<a href="/join/x1" translate="no">http://h/join/x1</a>',  # an address
    "<bdi translate=no>Jo 2, Kai</bdi>",  # a name as typed
    '<code translate="no" dir="ltr">games[0].hands[12]</code>',  # a path into a file
    "<p translate=no>Room <b>12</b>, <i>2</i> decks</p>",  # and what is inside them
    "<script>let a = [1, 2];</script>",  # never prose
])
def test_what_is_kept_as_written_is_kept(kept):
    assert page_digits(f"<p>1, {kept} 2</p>", "fa") == f"<p>۱، {kept} ۲</p>"


def test_the_picker_sends_back_to_the_page_never_to_its_query(client):
    html = client.get("/evenings?page=1&player=2").text
    assert '<input type="hidden" name="next" value="/evenings">' in html


def test_a_code_shown_in_persian_digits_can_be_typed_back(app, client, stranger, db):
    from scorekeeper.clubs.membership import typed_code

    assert typed_code("۷۹۱۰-vay۸") == "7910VAY8"


# --- no English left on any page --------------------------------------------------------

def english_fragments() -> list[str]:
    """Pieces of the English messages long enough to be a sentence's words (placeholders
    cut out), except those that every language writes the same way."""
    fragments = set()
    for message in catalogue("fy"):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in ids:
            for piece in PLACEHOLDER.split(text):
                piece = piece.strip(" .,:;()")
                if len(piece) >= 12 and " " in piece:
                    fragments.add(piece)
    return sorted(fragments)


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", html)
    return " ".join(text.replace("&amp;", "&").replace("&#39;", "'").split())


@pytest.fixture
def every_page(app, client, start_game, play):
    """The app's pages, with a game of two hands (one thrown in), and its ids."""
    game = start_game()
    play(game, 1, "pass,4,pass,pass,pass,pass", "hearts", "ABBCC", "A")
    play(game, 2, "pass,pass,pass,pass,pass,pass")
    client.post(f"/club/share/{game}")
    return [
        "/", "/games/new", f"/games/{game}", f"/games/{game}?number=2&calls=pass,4",
        f"/games/{game}?number=2&calls=pass,4,pass,pass,pass,pass",
        f"/games/{game}?number=2&calls=pass,4,pass,pass,pass,pass&trump=clubs",
        f"/games/{game}/hands/1/edit", f"/games/{game}/changes", f"/games/{game}/board",
        "/evenings", "/evenings/1", "/evenings/1/board", "/players", "/players/1", "/backup", "/games/import",
        "/club", f"/club/share/{game}", "/rules", "/games/999",
    ]


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_english_sentence_is_left_on_any_page(app, client, every_page, language):
    client.set_cookie("lang", language)
    translations = catalogue(language)
    same_in_both = {m.id for m in translations if m.id and m.string == m.id}
    fragments = [f for f in english_fragments() if f not in same_in_both]
    for url in every_page:
        text = visible_text(client.get(url).text)
        left = [fragment for fragment in fragments if fragment in text]
        assert left == [], f"{language} {url}: {left[:5]}"
    stranger = app.test_client()
    stranger.set_cookie("lang", language)
    for url in ("/welcome", "/join"):
        text = visible_text(stranger.get(url, follow_redirects=True).text)
        assert [f for f in fragments if f in text] == [], f"{language} {url}"


def test_english_pages_do_show_the_english_sentences(client, every_page):
    """The check above can fail: in English, the same pages hold these fragments."""
    text = " ".join(visible_text(client.get(url).text) for url in every_page)
    found = [fragment for fragment in english_fragments() if fragment in text]
    assert len(found) > 60


@pytest.mark.parametrize("html, expected", [
    # A value that merely mentions translate=no marks nothing (a player may be so named).
    ('<option value="x translate=no">1</option><p>2</p>', '<option value="x translate=no">۱</option><p>۲</p>'),
    # Options left unclosed inside a kept element don't keep what follows it.
    ("<datalist translate=no><option>1<option>2</datalist><p>3</p>",
     "<datalist translate=no><option>1<option>2</datalist><p>۳</p>"),
    # A kept element ends at its own end tag, whatever is left open inside it.
    ("<p translate=no><b>1<i>2</p> 3", "<p translate=no><b>1<i>2</p> ۳"),
    ('<div TRANSLATE = "NO"><div>1</div>2</div>3', '<div TRANSLATE = "NO"><div>1</div>2</div>۳'),
    # A ">" inside a quoted value is part of the tag; comments and scripts are not prose.
    ('<a title="a > 1">2</a>', '<a title="a > 1">۲</a>'),
    ("<!-- 1 > 2 --><p>3</p>", "<!-- 1 > 2 --><p>۳</p>"),
    ("<script>if (a<b) f(1, 2)</script><p>3</p>", "<script>if (a<b) f(1, 2)</script><p>۳</p>"),
    ('<input translate=no value="1"><p>2</p>', '<input translate=no value="1"><p>۲</p>'),
])
def test_the_digit_writer_reads_markup_as_a_browser_would(html, expected):
    assert page_digits(html, "fa") == expected
