"""Everything the app says in sentences: rule messages, verdicts, the hand preview.

The rules engine speaks in codes and numbers; this module turns them into words
through gettext, so that every sentence a player reads can be translated.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Mapping

from flask_babel import gettext as _, lazy_gettext as _l
from markupsafe import Markup

from scorekeeper.rules import (
    CARD_POINTS, Auction, Deal, HandRejected, HouseRules, Point, RuleViolation, Suit, Verdict,
    VerdictKind,
)
from scorekeeper.rules.cards import JOKER
from scorekeeper.rules.game import DealResult
from scorekeeper.rules.house import house_rule
from scorekeeper.rules.needs import Need, Way
from scorekeeper.rules.table import TEAM_LETTERS, left_of
from scorekeeper.store.models import ChangeKind
from scorekeeper.text.names import partners, team_part, typed
from scorekeeper.web.languages import RIGHT_TO_LEFT, current_language, request_translations

SUIT_NAMES = {
    Suit.SPADES: _l("Spades"), Suit.HEARTS: _l("Hearts"),
    Suit.DIAMONDS: _l("Diamonds"), Suit.CLUBS: _l("Clubs"),
}
POINT_NAMES = {
    Point.HIGH: _l("High"), Point.LOW: _l("Low"), Point.RIGHT: _l("Right Bauer"),
    Point.LEFT: _l("Left Bauer"), Point.JOKER: _l("Joker"), Point.GAME: _l("Game"),
}

_VIOLATIONS = {
    "seat_invalid": _l("That is not a seat: this table's seats are 1 to %(seats)s."),
    "teams_invalid": _l("Those are not teams a table plays: choose one of the layouts offered."),
    "target_invalid": _l("The target must be a whole number from %(low)s to %(high)s."),
    "house_rule_invalid": _l("“%(rule)s” is one of: %(choices)s."),
    "house_rule_unknown": _l("There is no house rule “%(rule)s”."),
    "call_invalid": _l("That is neither a pass nor a bid of %(low)s to %(high)s."),
    "bid_invalid": _l("That winning bid is not one of the seats with a bid of %(low)s to "
                      "%(high)s."),
    "dealer_must_bid": _l("Everyone before the dealer passed, and the dealer is stuck: the "
                          "dealer must bid, %(bid)s or more."),
    "bid_and_turns": _l(
        "“Everyone passed” and a seat's call were both chosen: the calls were kept. "
        "Check the bidding."
    ),
    "out_of_turn": _l("It is seat %(expected)s's turn to bid, not seat %(seat)s's."),
    "auction_over": _l("The auction is already over."),
    "bid_not_higher": _l("A bid must be higher than %(highest)s."),
    "auction_unfinished": _l(
        "The auction is not over yet: every seat passes or bids, unless someone bids 6."
    ),
    "throw_in_scored": _l("Everyone passed, so this hand has no trump and no points."),
    "trump_missing": _l("Choose trump first."),
    "trump_invalid": _l("Trump must be spades, hearts, diamonds or clubs."),
    "tally_missing": _l("Say which team took each point."),
    "point_unknown": _l("That is not one of the six points."),
    "point_unassigned": _l("%(point)s goes to exactly one team: choose which."),
    "point_not_a_team": _l("%(point)s: choose one of this game's teams."),
    "game_value_invalid": _l("Game values are whole numbers, 0 or more."),
    "game_values_over": _l(
        "The game values add up to %(total)s, but the whole deck holds only %(limit)s."
    ),
    "game_disagrees": _l("The Game team you chose does not match the game values counted."),
    "game_over": _l("The game is over: it takes no more hands."),
    "no_such_hand": _l("There is no hand %(number)s in this game."),
    "edit_ends_game": _l(
        "With this correction the game is over after hand %(ended)s, but hands %(first)s "
        "to %(last)s were played after it. If the correction is right, undo those first."
    ),
    "seats_count": _l("This table needs exactly %(seats)s players."),
    "seat_empty": _l("Seat %(seat)s needs a player."),
    "name_too_long": _l("Seat %(seat)s: a name may have at most %(limit)s letters."),
    "name_twice": _l("%(name)s can't sit twice (seats %(first)s and %(seat)s)."),
    "swap_same_seat": _l("Choose two different seats to swap."),
    "name_same": _l("Seat %(seat)s holds that name already."),
    "no_such_seat": _l("That is not a seat: this table's seats are 1 to %(seats)s."),
    "substitute_from_start": _l(
        "From hand 1 on, someone else sat in seat %(seat)s all game: that is a wrong "
        "name, not a substitute. Correct it under “A name is wrong”."),
    "substitute_there": _l(
        "%(name)s took seat %(seat)s at hand %(number)s already: take that back first to "
        "name someone else."),
    "sits_once": _l(
        "%(name)s sat in seat %(seat)s in another part of this game: a player sits in one "
        "seat, for one stretch, in a game."),
    "no_substitute": _l("Nobody took seat %(seat)s at hand %(number)s (any more)."),
}


# When only one later hand is in the way, the sentence names it alone.
_ONE_LATER_HAND = {
    "edit_ends_game": _l(
        "With this correction the game is over after hand %(ended)s, but hand %(first)s "
        "was played after it. If the correction is right, undo it first."
    ),
}


def fill(sentence: str, **params) -> Markup:
    """A translated sentence with its parts put in: text escaped, and markup (an isolated
    team or name) kept, so that each part is drawn in place in every language."""
    return Markup.escape(sentence) % params


def point_name(point: str) -> str:
    if point == "rest":
        return _("The rest")
    try:
        return str(POINT_NAMES[Point(point)])
    except ValueError:
        return str(point)


def card_name(card: str) -> Markup:
    """A card as a page shows it: "A♥" kept left to right (so that in right-to-left text
    the suit stays after its rank), the Joker in the reader's words."""
    if card == JOKER:
        return Markup.escape(point_name("joker"))
    return Markup('<bdi class="playing-card" dir="ltr">%s</bdi>') % card


def suit_name(suit: str) -> str:
    return str(SUIT_NAMES[Suit(suit)])


def team_names(replay, team: str) -> Markup:
    """A team's players in a line, in seat order (``partners``)."""
    return partners(replay.names[seat] for seat in replay.rules.team_seats[team])


def suit_symbol(suit: str) -> Markup:
    """A trump's symbol in a sentence (its name for those who hover or can't see it)."""
    suit = Suit(suit)
    return Markup('<span class="suit-%s" title="%s">%s</span>') % (
        suit.value, suit_name(suit), suit.symbol)


def violation_message(violation: RuleViolation) -> str:
    """A rule violation as a sentence for the page."""
    template = _VIOLATIONS.get(violation.code)
    params = violation.params
    if violation.code in _ONE_LATER_HAND and params.get("first") == params.get("last"):
        template = _ONE_LATER_HAND[violation.code]
    if template is None:
        return violation.english
    params = dict(violation.params)
    if "rule" in params:
        params.update(_house_rule_words(params["rule"]))
    if "point" in params:
        params["point"] = point_name(params["point"])
    if "name" in params:
        params["name"] = typed(params["name"])
    try:
        sentence = fill(str(template), **params)
    except (KeyError, TypeError, ValueError):
        sentence = Markup.escape(violation.english)
    if isinstance(violation, HandRejected):
        return fill(_("Hand %(number)s: %(message)s"), number=violation.number, message=sentence)
    return sentence


def _house_rule_words(name: str) -> dict[str, str]:
    """A house rule's name and its values, in words (``rules.house``); a name no rule has
    is shown as written."""
    try:
        rule = house_rule(name)
    except RuleViolation:
        return {"rule": name}
    return {"rule": _(rule.words),
            "choices": ", ".join(_(choice.words) for choice in rule.choices)}


def still_to_choose(points: list[str]) -> str:
    return _("Still to choose: %(points)s.", points=", ".join(point_name(p) for p in points))


def time_words(taken: timedelta) -> str:
    """A stretch of an evening as a table says it: "1 h 12 min", "45 min"."""
    hours, minutes = divmod(max(1, round(taken.total_seconds() / 60)), 60)
    if hours:
        return _("%(hours)s h %(minutes)s min", hours=hours, minutes=minutes)
    return _("%(minutes)s min", minutes=minutes)


def game_values(values: Mapping[str, int]) -> Markup:
    """Game values counted, team by team ("A 12, B 30, C 38"): each team's part isolated."""
    return Markup(", ").join(team_part(f"{team} {value}") for team, value in values.items())


def list_teams(teams: tuple[str, ...]) -> Markup:
    """Two to six teams in a sentence ("A and B", "A, B and C", "A, B, C, D, E and F"),
    each part isolated."""
    teams = tuple(team_part(team) for team in teams)
    if len(teams) == 2:
        return fill(_("%(a)s and %(b)s"), a=teams[0], b=teams[1])
    listed = teams[0]
    for team in teams[1:-2]:
        listed = fill(_("%(a)s, %(b)s"), a=listed, b=team)
    return fill(_("%(a)s, %(b)s and %(c)s"), a=listed, b=teams[-2], c=teams[-1])


def verdict_sentence(verdict: Verdict) -> Markup:
    """Why the game stands as it does, in words (the tie-break spelled out)."""
    kind, target = verdict.kind, verdict.target
    winner = team_part(verdict.winner) if verdict.winner else None
    if kind is VerdictKind.PLAYING:
        return fill(_("First team to %(target)s wins."), target=target)
    if kind is VerdictKind.REACHED:
        return fill(_("%(team)s reached %(target)s: %(team)s wins."), team=winner, target=target)
    if kind is VerdictKind.BIDDER_GOES_OUT:
        return fill(_(
            "%(team)s made its bid and reached %(target)s: the bidder goes out, "
            "%(team)s wins."), team=winner, target=target,
        )
    if kind is VerdictKind.ALL_SIX:
        return fill(_("%(team)s took all six points of the hand, a smudge: %(team)s wins."),
                    team=winner)
    if kind is VerdictKind.MORE_POINTS:
        if len(verdict.teams) == 2:
            return fill(_(
                "%(teams)s both passed %(target)s; %(team)s has more points."),
                teams=list_teams(verdict.teams), target=target, team=winner,
            )
        return fill(_(
            "%(teams)s all passed %(target)s; %(team)s has the most points."),
            teams=list_teams(verdict.teams), target=target, team=winner,
        )
    if kind is VerdictKind.BIDDER_BREAKS_TIE:
        return fill(_(
            "%(teams)s tied on %(score)s; %(team)s bid, so %(team)s wins."),
            teams=list_teams(verdict.teams), score=verdict.score, team=winner,
        )
    return fill(_(
        "%(teams)s tied on %(score)s and neither bid: play another hand."),
        teams=list_teams(verdict.teams), score=verdict.score,
    )


def _bidding_sentence(team: Markup, bidding: Way) -> Markup:
    if bidding.goes_out:
        said = _("If %(team)s bids and makes %(points)s, %(team)s goes out as the bidder.")
    elif bidding.tie_break:
        said = _("If %(team)s bids and makes %(points)s, %(team)s wins, on the tie-break "
                 "if need be.")
    else:
        said = _("If %(team)s bids and makes %(points)s, %(team)s wins.")
    return fill(said, team=team, points=bidding.points)


def need_sentence(need: Need) -> Markup:
    """What one team needs to go out in the next hand, bidding and without the bid
    (RULES.md, "What each team needs"), the tie-break and the house rule named."""
    team = team_part(need.team)
    if not need.can_go_out:
        return fill(_("%(team)s can't go out in the next hand."), team=team)
    sentences = [] if need.bidding is None else [_bidding_sentence(team, need.bidding)]
    if need.not_bidding is None:
        sentences.append(fill(_("Without the bid, %(team)s can't go out."), team=team))
    else:
        # (The words alone: fill puts the parts in, the team's letter isolated.)
        sentences.append(fill(request_translations().ungettext(
            "Without the bid, %(team)s needs %(num)s point.",
            "Without the bid, %(team)s needs %(num)s points.", need.not_bidding.points),
            team=team, num=need.not_bidding.points))
    return Markup(" ").join(sentences)


def verdict_patterns() -> dict[str, Markup]:
    """Every verdict sentence with its parts left as {team}, {target}, {score} and {t1}…
    {t6}, for the phone to fill in when it plays on with no connection (offline.js):
    keyed by the verdict's kind, and by how many teams it lists where that varies."""
    def sentence(kind: VerdictKind, listed: int = 0) -> Markup:
        teams = tuple(f"{{t{i}}}" for i in range(1, listed + 1))
        return verdict_sentence(Verdict(kind, "{target}", "{team}", teams, "{score}"))  # type: ignore[arg-type]
    patterns = {kind.value: sentence(kind) for kind in (
        VerdictKind.PLAYING, VerdictKind.REACHED, VerdictKind.BIDDER_GOES_OUT,
        VerdictKind.ALL_SIX)}
    for kind in (VerdictKind.MORE_POINTS, VerdictKind.BIDDER_BREAKS_TIE, VerdictKind.TIE_PLAY_ON):
        for listed in range(2, len(TEAM_LETTERS) + 1):
            patterns[f"{kind.value}_{listed}"] = sentence(kind, listed)
    return patterns


def _sign_mark() -> str:
    """A left-to-right mark before a sign in right-to-left text, so that it stays on the
    left of its number (as CLDR writes Persian's minus sign); nothing elsewhere."""
    return "\u200e" if current_language() in RIGHT_TO_LEFT else ""


def minus(number: int) -> str:
    """A score as the page shows it: a real minus sign, never a hyphen."""
    return str(number) if number >= 0 else f"{_sign_mark()}−{-number}"


def signed(number: int) -> str:
    """+3, −4 (a real minus sign), +0."""
    return f"{_sign_mark()}{'+' if number >= 0 else '−'}{abs(number)}"


def hand_preview(deal: DealResult) -> Markup:
    """E.g. “B bid 4, took 3: set, −4. A +2, C +1.” (each team's part isolated)"""
    team = deal.bidding_team
    if deal.made:
        lead = _("%(team)s bid %(bid)s, took %(taken)s: made, %(change)s.")
    else:
        lead = _("%(team)s bid %(bid)s, took %(taken)s: set, %(change)s.")
    lead = fill(lead, team=team_part(team), bid=deal.bid, taken=deal.taken[team],
                change=signed(deal.score_change[team]))
    others = Markup(", ").join(
        team_part(f"{other} {signed(change)}")
        for other, change in deal.score_change.items() if other != team
    )
    return Markup("%s %s.") % (lead, others)


def deal_summary(deal: Deal, dealer_seat: int, names: dict[int, str],
                 rules: HouseRules) -> str:
    """A hand of a game played by ``rules`` as entered, in a sentence: "Cid bid 4, hearts
    trump: High A, Low B, …"."""
    auction = Auction.of(rules, dealer_seat, tuple(deal.calls))
    if auction.thrown_in or deal.tally is None:
        return fill(_("everyone passed: thrown in"))
    tally = deal.tally
    points = [team_part(f"{point_name(point)} {tally.card_points.get(point.value, '–')}")
              for point in CARD_POINTS]
    if tally.game_values:
        values = Markup(", ").join(team_part(f"{team} {value}")
                                   for team, value in sorted(tally.game_values.items()))
        points.append(fill(_("Game by the values counted (%(values)s)"), values=values))
    else:
        points.append(team_part(f"{point_name('game')} {tally.game or _('nobody')}"))
    return fill(_("%(name)s bid %(bid)s, %(suit)s trump: %(points)s"),
                name=typed(names[auction.bidder_seat]), bid=auction.highest_bid,
                suit=suit_name(deal.trump), points=Markup(", ").join(points))


def _scores(scores: dict[str, int] | None, how=minus) -> Markup:
    return Markup(", ").join(team_part(f"{team} {how(value)}")
                             for team, value in sorted((scores or {}).items()))


def hand_scores(change: dict[str, int]) -> Markup:
    """A hand's score change per team: "A +4, B −2, C +1"."""
    return _scores(change, signed)


def _old_to_new(before: dict[str, int] | None, after: dict[str, int] | None, how) -> Markup:
    """Each team's figure before → after ("A 2 → 3, B −4, C 1 → 0"): one that stayed, once."""
    teams = sorted(set(before or {}) | set(after or {}))
    parts = []
    for team in teams:
        old, new = (before or {}).get(team), (after or {}).get(team)
        if old == new:
            parts.append(team_part(f"{team} {how(new)}"))
        else:
            shown_old = how(old) if old is not None else "–"
            shown_new = how(new) if new is not None else "–"
            parts.append(team_part(f"{team} {shown_old} → {shown_new}"))
    return Markup(", ").join(parts)


def _substitute_sentence(change) -> Markup:
    """A substitute put in or taken back, as the change log says it."""
    details = change.details
    if change.kind == ChangeKind.SUBBED:
        sentence = _("put %(new)s in seat %(seat)s for %(old)s from hand %(number)s on")
    else:
        sentence = _("took back %(old)s in seat %(seat)s from hand %(number)s on: %(new)s "
                     "plays it again")
    return fill(sentence, new=typed(details["to"]), old=typed(details["from"]),
                seat=details["seat"], number=change.number)


def change_sentence(change) -> Markup:
    """A change-log entry in words: what was done to which hand, and the scores it moved."""
    number = change.number
    if change.kind == ChangeKind.RECORDED:
        if change.hand_after is None:
            what = fill(_("recorded hand %(number)s: thrown in"), number=number)
        else:
            what = fill(_("recorded hand %(number)s: %(scores)s"), number=number,
                        scores=_scores(change.hand_after, signed))
    elif change.kind == ChangeKind.EDITED:
        what = fill(_("corrected hand %(number)s: %(scores)s"), number=number,
                    scores=_old_to_new(change.hand_before, change.hand_after, signed))
        if change.details:
            what = Markup("%s (%s)") % (what, what_changed(change.details))
    elif change.kind == ChangeKind.UNDONE:
        what = fill(_("undid hand %(number)s"), number=number)
    elif change.kind == ChangeKind.RESTORED:
        what = fill(_("brought hand %(number)s back"), number=number)
    elif change.kind == ChangeKind.INSERTED:
        if (change.details or {}).get("thrown_in"):
            what = fill(_("put in a forgotten hand %(number)s: thrown in"), number=number)
        else:
            what = fill(_("put in a forgotten hand %(number)s: %(scores)s"), number=number,
                        scores=_scores(change.hand_after, signed))
    elif change.kind == ChangeKind.SEATS:
        first, second = change.details["players"]
        what = fill(_("swapped %(first)s and %(second)s (seats %(a)s and %(b)s)"),
                    first=typed(first), second=typed(second), a=change.details["seats"][0],
                    b=change.details["seats"][1])
    elif change.kind == ChangeKind.RENAMED:
        what = fill(_("renamed seat %(seat)s: %(old)s → %(new)s"), seat=change.details["seat"],
                    old=typed(change.details["from"]), new=typed(change.details["to"]))
    elif change.kind in (ChangeKind.SUBBED, ChangeKind.UNSUBBED):
        what = _substitute_sentence(change)
    elif change.kind == ChangeKind.CONFIRMED:
        what = fill(_("confirmed hand %(number)s for team %(team)s"), number=number,
                    team=(change.details or {}).get("team") or "–")
    elif change.kind == ChangeKind.ABANDONED:
        what = Markup.escape(_("abandoned the game"))
    else:
        what = Markup.escape(_("took the game back into play"))
    moved = (change.details or {}).get("moved")
    if moved:
        what = Markup("%s; %s") % (what, dealers_moved(*moved))
    for number in (change.details or {}).get("kept_as_bid", ()):
        what = Markup("%s; %s") % (what, fill(_("hand %(number)s kept as its winning bid"),
                                              number=number))
    totals = _old_to_new(change.totals_before, change.totals_after, minus)
    return fill(_("%(what)s. Scores: %(totals)s."), what=what, totals=totals)


def what_changed(details: dict) -> Markup:
    """What a correction changed in a hand: "Joker B → C, trump ♥ → ♠"."""
    parts = []
    if "thrown_in" in details and isinstance(details["thrown_in"], list):
        parts.append(Markup.escape(_("played → thrown in") if details["thrown_in"][1]
                                   else _("thrown in → played")))
    if "bid" in details:
        old, new = details["bid"]
        parts.append(fill(_("bid: %(old)s → %(new)s"),
                          old=Markup("%s %s") % (typed(old[0]), old[1]),
                          new=Markup("%s %s") % (typed(new[0]), new[1])))
    if "trump" in details:
        old, new = details["trump"]
        parts.append(Markup("%s %s") % (_("Trump"), _from_to(suit_symbol(old), suit_symbol(new))))
    for point, (old, new) in (details.get("points") or {}).items():
        parts.append(Markup("%s %s") % (point_name(point),
                                        _from_to(old or _("nobody"), new or _("nobody"))))
    return Markup(", ").join(parts)


def _from_to(old, new) -> Markup:
    """"C → A"; in a right-to-left language "C ← A", each side isolated, so the line is
    read from the old to the new in its own direction and the arrow points the same way
    (a bare "C → A" would be drawn as one left-to-right run, read from A)."""
    if current_language() in RIGHT_TO_LEFT:
        return Markup("<bdi>%s</bdi> ← <bdi>%s</bdi>") % (old, new)
    return Markup("%s → %s") % (old, new)


def dealers_moved(first: int, last: int, to_the_left: bool) -> Markup:
    """Which later hands are now dealt one seat on (or back), e.g. after a forgotten hand."""
    if first == last:
        sentence = (_("hand %(first)s is now dealt one seat further to the left")
                    if to_the_left else
                    _("hand %(first)s is now dealt one seat back to the right"))
    else:
        sentence = (_("hands %(first)s–%(last)s are now dealt one seat further to the left")
                    if to_the_left else
                    _("hands %(first)s–%(last)s are now dealt one seat back to the right"))
    return fill(sentence, first=first, last=last)


def consequences(plan, names_before: dict[int, str], team_seats: dict[str, tuple[int, ...]]
                 ) -> list[Markup]:
    """What a planned correction will change, in sentences, before anyone confirms it."""
    before, after = plan.before, plan.after
    said: list[Markup] = []
    if plan.moved:
        first = plan.moved[0]
        to_left = first.dealer_after == left_of(first.dealer_before, len(names_before))
        said.append(fill(_("After this correction, %(moved)s (hand %(number)s by %(new)s "
                           "instead of %(old)s)."),
                         moved=dealers_moved(first.number, plan.moved[-1].number, to_left),
                         number=first.number, new=typed(names_before[first.dealer_after]),
                         old=typed(names_before[first.dealer_before])))
        for moved in plan.moved:
            if not moved.whole:
                deal = after.deals[moved.number - 1]
                said.append(fill(_("Hand %(number)s: its calls don't fit the new order, so "
                                   "it is kept as its winning bid: %(name)s %(bid)s, the "
                                   "others passing."), number=moved.number,
                                 name=typed(names_before[deal.bidder_seat]), bid=deal.bid))
    for seat in plan.seats:
        team = next(t for t, seats in team_seats.items() if seat in seats)
        partners = Markup(" &amp; ").join(typed(plan.names_after[s]) for s in team_seats[team]
                                          if s != seat)
        said.append(fill(_("%(name)s: seat %(seat)s, team %(team)s with %(partners)s; what "
                           "seat %(seat)s bid and took in this game counts for %(name)s."),
                         name=typed(plan.names_after[seat]), seat=seat, team=team_part(team),
                         partners=partners))
    if plan.kind == ChangeKind.ABANDONED:
        said.append(Markup.escape(_("The game is kept with all its hands and shown as "
                                    "abandoned; it leaves the statistics and the evening's "
                                    "tally. It can be taken back into play.")))
    elif plan.kind == ChangeKind.REINSTATED:
        said.append(Markup.escape(_("The game is back in play and counts again in the "
                                    "statistics and the evening's tally.")))
    if before.scores != after.scores:
        said.append(fill(_("Scores: %(totals)s."),
                         totals=_old_to_new(before.scores, after.scores, minus)))
    elif plan.kind in (ChangeKind.EDITED, ChangeKind.INSERTED):
        said.append(Markup.escape(_("The scores stay as they are.")))
    if before.finished and after.finished:
        if before.winner == after.winner:
            said.append(fill(_("The winner stays %(team)s."), team=team_part(after.winner)))
        else:
            said.append(fill(_("The winner changes from %(old)s to %(new)s."),
                             old=team_part(before.winner), new=team_part(after.winner)))
    elif before.finished:
        said.append(fill(_("The game is no longer over: %(verdict)s"),
                         verdict=verdict_sentence(after.verdict)))
    elif after.finished:
        said.append(fill(_("This ends the game: %(reason)s"),
                         reason=verdict_sentence(after.verdict)))
    return said
