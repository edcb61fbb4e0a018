"""The rules of Schmier in short, in the reader's language, with a trump's order."""
from __future__ import annotations

from flask import Blueprint, request

from scorekeeper.rules import SUITS, house
from scorekeeper.rules.cards import Suit, left_bauer, right_bauer, trump_order
from scorekeeper.views.pages import render_page
from scorekeeper.web.words import suit_name
from scorekeeper.web.allow import Allow, allow

bp = Blueprint("rules", __name__)


@bp.get("/rules")
@allow(Allow.PUBLIC)
def show():
    """The rules page; ``?trump=hearts`` shows that suit's trump order (hearts by default)."""
    asked = request.args.get("trump", "")
    trump = Suit(asked) if asked in {suit.value for suit in SUITS} else Suit.HEARTS
    return render_page("rules.html", trump=trump, order=trump_order(trump), suits=SUITS,
                       right=right_bauer(trump), left=left_bauer(trump), suit_name=suit_name,
                       house_rules=house.HOUSE_RULES,
                       back=request.args.get("game", type=int))
