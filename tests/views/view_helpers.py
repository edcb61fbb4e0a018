"""Reading the app's pages in tests, and building hands the way a table would.

Nothing here asks the app what the answer should be: pages are parsed by lxml (libxml2's
HTML parser: void elements, unclosed paragraphs and list items, comments and entities as
a browser reads them), and calls are laid out by hand from RULES.md (bidding starts left
of the dealer and goes clockwise, 6 -> 1).
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import lxml.html
from sqlmodel import select
from werkzeug.datastructures import MultiDict

from scorekeeper.store.models import Game, GameSeat, Hand, Player

PASS = "pass"
HTMX = {"HX-Request": "true"}
# Where a reader sees a gap between two words even with no space in the HTML.
GAPS = {"caption", "h1", "h2", "h3", "li", "p", "td", "th", "tr"}


# --- the questions the tests ask of an element ---------------------------------------

class Element:
    """An element of a parsed page (an lxml element), asked as the tests ask: by tag,
    class and attribute, for its text as a reader would see it."""

    __slots__ = ("node",)

    def __init__(self, node: lxml.html.HtmlElement) -> None:
        self.node = node

    @property
    def tag(self) -> str:
        return self.node.tag

    @property
    def attrs(self) -> dict[str, str]:
        return dict(self.node.attrib)

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.node.get(name, default)

    @property
    def classes(self) -> set[str]:
        return set((self.node.get("class") or "").split())

    @property
    def parent(self) -> "Element | None":
        parent = self.node.getparent()
        return None if parent is None else Element(parent)

    @property
    def children(self) -> list["Element | str"]:
        """Child elements and the text between them, in order (comments left out)."""
        found: list[Element | str] = [self.node.text] if self.node.text else []
        for child in self.node:
            if isinstance(child.tag, str):
                found.append(Element(child))
            if child.tail:
                found.append(child.tail)
        return found

    def iter(self):
        return (Element(node) for node in self.node.iter() if isinstance(node.tag, str))

    def find_all(self, tag: str | None = None, *, class_: str | None = None, **attrs):
        """Elements under this one (itself too) by tag, class and attributes; an
        attribute's ``_`` stands for ``-`` (``aria_hidden="true"``)."""
        wanted = {name.replace("_", "-"): value for name, value in attrs.items()}
        return [
            element for element in self.iter()
            if (tag is None or element.tag == tag)
            and (class_ is None or class_ in element.classes)
            and all(element.get(name) == value for name, value in wanted.items())
        ]

    def find(self, tag: str | None = None, **kwargs) -> "Element | None":
        found = self.find_all(tag, **kwargs)
        return found[0] if found else None

    def raw_text(self) -> str:
        return self.node.text_content()

    def text(self, gaps: bool = False) -> str:
        """The element's text with whitespace collapsed, as a reader would see it;
        ``gaps``: a paragraph, list item or table cell also ends a word."""
        if not gaps:
            return " ".join(self.raw_text().split())
        parts: list[str] = []

        def read(node) -> None:
            gap = node.tag in GAPS
            parts.append(" " if gap else "")
            parts.append(node.text or "")
            for child in node:
                if isinstance(child.tag, str):
                    read(child)
                parts.append(child.tail or "")
            parts.append(" " if gap else "")

        read(self.node)
        return " ".join("".join(parts).split())


def parse(html: str) -> Element:
    """A page or an htmx fragment, parsed as a whole document (<html>, <body>)."""
    if not html.strip():
        return Element(lxml.html.document_fromstring("<html></html>"))
    return Element(lxml.html.document_fromstring(html))


# --- forms and buttons ---------------------------------------------------------------

class Form:
    def __init__(self, element: Element):
        self.element = element
        self.method = (element.get("method") or "get").lower()
        self.action = element.get("action") or ""

    def fields(self) -> list[tuple[str, str]]:
        """What the form sends without a button: hidden and text inputs, checked radios."""
        pairs = []
        for field in self.element.find_all("input"):
            name = field.get("name")
            if not name:
                continue
            kind = (field.get("type") or "text").lower()
            if kind in ("radio", "checkbox"):
                if "checked" in field.attrs:
                    pairs.append((name, field.get("value") or "on"))
            else:
                pairs.append((name, field.get("value") or ""))
        return pairs

    def buttons(self) -> list[Element]:
        return self.element.find_all("button")

    def button_texts(self) -> list[str]:
        return [button.text() for button in self.buttons()]

    def checked(self, name: str) -> str | None:
        values = [value for key, value in self.fields() if key == name]
        return values[0] if values else None


class Page:
    """A response's HTML, with the questions the tests ask of it."""

    def __init__(self, response):
        self.response = response
        self.status = response.status_code
        self.html = response.get_data(as_text=True)
        self.root = parse(self.html)

    @property
    def text(self) -> str:
        return self.root.text()

    def alerts(self) -> list[str]:
        return [element.text() for element in self.root.find_all(role="alert")]

    def notices(self) -> list[str]:
        return [element.text() for element in self.root.find_all(role="status")]

    def by_id(self, element_id: str) -> Element | None:
        return self.root.find(id=element_id)

    def section_text(self, element_id: str) -> str:
        element = self.by_id(element_id)
        assert element is not None, f"no #{element_id} in the page"
        return element.text()

    def forms(self) -> list[Form]:
        return [Form(element) for element in self.root.find_all("form")]

    def button(self, label: str) -> tuple[Form, Element]:
        """The one button whose visible text is ``label``, and its form."""
        matches = [
            (form, button) for form in self.forms() for button in form.buttons()
            if button.text() == label
        ]
        assert len(matches) == 1, f"{len(matches)} buttons read {label!r}: {self.button_texts()}"
        return matches[0]

    def button_texts(self) -> list[str]:
        return [text for form in self.forms() for text in form.button_texts()]

    def has_button(self, label: str) -> bool:
        return label in self.button_texts()

    def form_posting_to(self, action: str) -> Form:
        forms = [form for form in self.forms() if form.method == "post" and form.action == action]
        assert len(forms) == 1, f"{len(forms)} forms post to {action}"
        return forms[0]

    def csrf_meta(self) -> str:
        meta = self.root.find("meta", name="csrf-token")
        assert meta is not None and meta.get("content"), "no csrf-token meta tag"
        return meta.get("content")

    # The scoreboard: <li class="team team-A"> letter, score, names.
    def score_texts(self) -> dict[str, str]:
        scores = {}
        for item in self.root.find_all("li", class_="team"):
            letter = item.find("span", class_="team-letter").text()
            scores[letter] = item.find("span", class_="team-score").text()
        return scores

    def scores(self) -> dict[str, int]:
        return {team: as_int(text) for team, text in self.score_texts().items()}

    def team_names(self) -> dict[str, str]:
        return {
            item.find("span", class_="team-letter").text():
                item.find("span", class_="team-names").text()
            for item in self.root.find_all("li", class_="team")
        }

    def winner_marked(self) -> list[str]:
        return [
            item.find("span", class_="team-letter").text()
            for item in self.root.find_all("li", class_="team") if "winner" in item.classes
        ]

    def verdict(self) -> str:
        return self.section_text("verdict")

    def entry_title(self) -> str:
        return self.section_text("entry-title")

    def history(self) -> dict[int, dict]:
        """Hand number -> its line in the history: head text and running totals."""
        deals = {}
        for item in self.root.find_all("li", class_="deal"):
            head = item.find("p", class_="deal-head").text()
            number = int(head.split(".", 1)[0])
            score_line = item.find("p", class_="deal-scores").text()
            totals = {
                team: as_int(total)
                for team, total in re.findall(r"([A-C]) (?:\S+ )?= (\S+)", score_line)
            }
            changes = dict(re.findall(r"([A-C]) ([+−]\d+) =", score_line))
            deals[number] = {"head": head, "scores": totals, "changes": changes,
                             "text": item.text()}
        return deals


def as_int(text: str) -> int:
    """A score as the page writes it: a negative one with the real minus sign (−),
    never the hyphen "-" a screen reader reads as a dash."""
    assert "-" not in text, f"{text!r} has a hyphen for a minus sign"
    return int(text.strip().replace("−", "-"))


def path_of(url: str) -> str:
    return urlsplit(url).path


# --- driving the pages ---------------------------------------------------------------

def submit(client, form: Form, button: Element | None = None, *, headers=None,
           changes: dict[str, str] | None = None):
    """Send a form as a browser would (with the pressed button's name and value)."""
    pairs = [(k, v) for k, v in form.fields() if not changes or k not in changes]
    if changes:
        pairs += [(k, v) for k, v in changes.items() if v is not None]
    if button is not None and button.get("name"):
        pairs.append((button.get("name"), button.get("value") or ""))
    if form.method == "post":
        return client.post(form.action, data=MultiDict(pairs), headers=headers or {})
    return client.get(form.action, query_string=pairs, headers=headers or {})


def click(client, page: Page, label: str, **kwargs):
    form, button = page.button(label)
    return submit(client, form, button, **kwargs)


def the_hand_form(page: Page) -> Form:
    """The one form holding every choice of the hand being entered."""
    forms = [form for form in page.forms() if form.element.get("id") == "hand-form"]
    assert len(forms) == 1, f"{len(forms)} hand forms on the page"
    return forms[0]


def send_hand(client, page: Page, *, headers=None, **choices):
    """Tap these choices on the page's hand form, then Record: what a phone sends."""
    return submit(client, the_hand_form(page), headers=headers, changes=choices)


# --- hands laid out by hand from RULES.md ------------------------------------------

def bidding_order(dealer: int) -> list[int]:
    """From the dealer's left, clockwise, the dealer last."""
    return [(dealer + step - 1) % 6 + 1 for step in range(1, 7)]


def calls_for(dealer: int, bids: dict[int, int]) -> str:
    """The calls of an auction where ``bids`` (seat -> bid) are made and everyone else
    passes; it stops at a 6."""
    calls = []
    for seat in bidding_order(dealer):
        call = bids.get(seat, PASS)
        calls.append(str(call))
        if call == 6:
            break
    return ",".join(calls)


THROW_IN = ",".join([PASS] * 6)
POINT_FIELDS = ("high", "low", "right", "left", "joker")


def tally_fields(owners: str, game: str | None = None,
                 values: dict[str, int] | None = None) -> dict[str, str]:
    """owners: five team letters for High, Low, Right, Left, Joker ("-" leaves one out)."""
    fields = {
        point: team for point, team in zip(POINT_FIELDS, owners, strict=True) if team != "-"
    }
    if game is not None:
        fields["game"] = game
    for team, value in (values or {}).items():
        fields[f"value_{team}"] = str(value)
    return fields


def hand_form(number: int, calls: str, trump: str | None = None, owners: str | None = None,
              game: str | None = None, values: dict[str, int] | None = None) -> dict:
    form = {"number": str(number), "calls": calls}
    if trump is not None:
        form["trump"] = trump
    if owners is not None:
        form.update(tally_fields(owners, game, values))
    return form


# --- the database --------------------------------------------------------------------

def rows(db, model, *where, order_by=None):
    """Fresh rows (the app wrote them through other sessions)."""
    db.expire_all()
    query = select(model).where(*where) if where else select(model)
    if order_by is not None:
        query = query.order_by(order_by)
    return list(db.exec(query))


def hands_of(db, game_id: int, *, live_only: bool = False) -> list[Hand]:
    found = rows(db, Hand, Hand.game_id == game_id, order_by=Hand.id)
    return [hand for hand in found if hand.undone_at is None] if live_only else found


def seat_players(db, game_id: int) -> dict[int, Player]:
    seats = rows(db, GameSeat, GameSeat.game_id == game_id)
    return {seat.seat: db.get(Player, seat.player_id) for seat in seats}


def count(db, model) -> int:
    return len(rows(db, model))


__all__ = [
    "Element", "Form", "Game", "GameSeat", "HTMX", "Hand", "PASS", "Page", "Player",
    "THROW_IN", "as_int", "bidding_order", "calls_for", "click", "count", "hand_form",
    "hands_of", "parse", "path_of", "rows", "seat_players", "send_hand", "submit",
    "tally_fields", "the_hand_form",
]
