"""Games as JSON files (format schmier-game/1): export a game, check and store an import.

RULES.md, "Game files".

A file carries the recorded facts (rules, seats, first dealer and each deal's auction,
trump and points, and any substitute who took a seat from a hand on) and, on export,
what they add up to. An import reads only the facts and replays them through the rules
engine, so a file can never bring in a score the hands don't give; anything wrong
refuses the whole file and nothing is stored. A game without substitutes is written
exactly as before they were kept, and a file without ``substitutes`` reads as ever.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar, Optional

from flask_babel import force_locale
from markupsafe import Markup
from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError
from pydantic import model_validator
from pydantic_core import PydanticCustomError
from sqlmodel import Session

from scorekeeper.files.json_files import (
    N_, FileRefused, AsWritten, Message, json_kind, path, read_json, shape_refusal, shown,
)
from scorekeeper.rules import (
    CARD_POINTS, Deal, DealResult, GameState, HandRejected, HouseRules,
    RuleViolation, Tally, replay as replay_deals,
)
from scorekeeper.rules.auction import parse_call
from scorekeeper.rules.game import play_deal
from scorekeeper.rules.table import check_seat
from scorekeeper.store.models import Club, Evening, Game, Hand
from scorekeeper.store.replay import Replay, hand_fields
from scorekeeper.store.sittings import Sitting, starting_seating
from scorekeeper.table.seating import (
    check_names, in_evening, new_game, seat_game, substitute_problem,
)
from scorekeeper.text.names import clean_name
from scorekeeper.web.words import verdict_sentence

FORMAT = "schmier-game/1"
# More than any evening plays (a game to 21 is some 15 to 40 hands): a bound on what a
# file may bring in, so that no imported game is too long to show.
MAX_HANDS = 1000

# Keys an export adds; an import accepts them and ignores them (it replays instead).
DERIVED_GAME_KEYS = frozenset(
    {"id", "created_at", "scores", "status", "winner", "winner_reason", "next_dealer"}
)
DERIVED_HAND_KEYS = frozenset({
    "dealer", "thrown_in", "bidder", "bid", "bidding_team", "taken", "made",
    "score_change", "scores_after",
})


# --- export ---------------------------------------------------------------------------

def export_game(replay: Replay) -> dict[str, Any]:
    """The game as a schmier-game/1 record: the facts recorded and what they add up to."""
    state = replay.state
    # The file is read by people and programs anywhere: its sentence is always English,
    # and plain text (a page's sentence may isolate each team's letter in markup).
    with force_locale("en"):
        winner_reason = Markup.escape(verdict_sentence(state.verdict)).striptags()
    return {
        "format": FORMAT,
        "id": replay.game.id,
        "created_at": replay.game.created_at.isoformat(),
        "rules": {
            "teams": str(replay.rules.teams),
            "target": replay.rules.target,
            **replay.rules.house_values,
        },
        "seats": [replay.names_at(1)[seat] for seat in replay.rules.seat_numbers],
        **({"substitutes": [substitute_record(s) for s in replay.substitutes]}
           if replay.substitutes else {}),
        "first_dealer": replay.game.first_dealer,
        "hands": [_hand_record(hand, deal) for hand, deal in zip(replay.hands, state.deals)],
        "scores": dict(state.scores),
        "status": "finished" if state.finished else "playing",
        "winner": state.winner,
        "winner_reason": winner_reason,
        "next_dealer": None if state.finished else state.next_dealer,
    }


def export_text(replay: Replay) -> str:
    """The export as the text of a file."""
    return json.dumps(export_game(replay), indent=2, ensure_ascii=False) + "\n"


def substitute_record(sitting: Sitting) -> dict[str, Any]:
    """A substitute as a file writes it: the seat, the hand they took it at, the name."""
    return {"seat": sitting.seat, "from_hand": sitting.from_hand, "name": sitting.name}


def hand_facts(hand: Hand) -> dict[str, Any]:
    """A hand's recorded facts as a file writes them: the auction, trump and points.

    What an import reads back; a backup writes an undone hand with these alone.
    """
    return {
        "auction": list(hand.calls),
        "trump": hand.trump,
        "points": None if hand.points is None else _points_record(hand),
    }


def _hand_record(hand: Hand, deal: DealResult) -> dict[str, Any]:
    record: dict[str, Any] = {**hand_facts(hand), "dealer": deal.dealer_seat,
                              "thrown_in": deal.thrown_in}
    if not deal.thrown_in:
        record.update(
            bidder=deal.bidder_seat,
            bid=deal.bid,
            bidding_team=deal.bidding_team,
            taken=dict(deal.taken),
            made=deal.made,
            score_change=dict(deal.score_change),
            scores_after=dict(deal.scores_after),
        )
    return record


def _points_record(hand: Hand) -> dict[str, Any]:
    """The points as the table recorded them: Game by team, or the game values counted."""
    points: dict[str, Any] = {point.value: hand.points[point.value] for point in CARD_POINTS}
    if hand.game_values is not None:
        points["game_values"] = dict(hand.game_values)
    else:
        points["game"] = hand.points.get("game")
    return points


# --- import: the file's shape ---------------------------------------------------------

class _Facts(BaseModel):
    """A part of the file: its recorded facts, plus derived keys that are dropped unread."""

    model_config = ConfigDict(extra="forbid")
    derived_keys: ClassVar[frozenset[str]] = frozenset()

    @model_validator(mode="before")
    @classmethod
    def _drop_derived(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {key: value for key, value in data.items() if key not in cls.derived_keys}
        return data


# A house rule left out of a file is the one a new game starts with (RULES.md, "House
# rules"); an export writes all of them.
DEFAULT_RULES = HouseRules()


class RulesFacts(_Facts):
    """The game's rules: its teams, its target, and each house rule by its name (as
    ``rules.house`` declares them; checked by the engine, not here)."""

    model_config = ConfigDict(extra="allow")
    teams: StrictStr = DEFAULT_RULES.teams.value
    target: StrictInt = DEFAULT_RULES.target


class PointsFacts(_Facts):
    high: StrictStr
    low: StrictStr
    right: StrictStr
    left: StrictStr
    joker: StrictStr
    game: Optional[StrictStr] = None
    game_values: Optional[dict[str, StrictInt]] = None

    @model_validator(mode="after")
    def _game_given(self) -> "PointsFacts":
        # A missing "game" is more likely a slip than a tie: a tie is written as null.
        if "game" not in self.model_fields_set and self.game_values is None:
            raise PydanticCustomError(
                "game_missing",
                "no Game: give the team that took it (null when tied), or game_values",
            )
        return self


class HandFacts(_Facts):
    derived_keys: ClassVar[frozenset[str]] = DERIVED_HAND_KEYS

    # Each call is read by the rules engine, which says exactly what is wrong with it.
    auction: list[Any]
    trump: Optional[StrictStr] = None
    points: Optional[PointsFacts] = None


class SubstituteFacts(_Facts):
    seat: StrictInt
    from_hand: StrictInt
    name: StrictStr


class GameFacts(_Facts):
    derived_keys: ClassVar[frozenset[str]] = DERIVED_GAME_KEYS

    format: StrictStr
    rules: RulesFacts = RulesFacts()
    seats: list[StrictStr]
    # Who took a seat during the game (from the hand they took it at); none in the
    # files written before substitutes were kept.
    substitutes: list[SubstituteFacts] = []
    first_dealer: StrictInt
    hands: list[HandFacts]


# --- import: checking and storing -----------------------------------------------------

@dataclass(frozen=True)
class ImportedGame:
    """A game file that passed every check, ready to store."""

    rules: HouseRules
    names: tuple[str, ...]  # the players the game started with, seat 1 first
    first_dealer: int
    deals: tuple[Deal, ...]
    state: GameState
    substitutes: tuple[Sitting, ...] = ()  # in the file's order


def read_game_file(raw: bytes | str, limit: int | None = None) -> ImportedGame:
    """Check a game file whole: its size, JSON, and the game it holds (read_game)."""
    data = read_json(raw, limit, lambda size: Message(
        N_("the file is larger than %(size)s, the most a game file may be"), size=size))
    if not isinstance(data, dict):
        raise FileRefused(None, Message(N_("a game file holds one JSON object, not %(kind)s"),
                                        kind=json_kind(data)))
    return read_game(data)


def read_game(data: dict[str, Any], where: str = "") -> ImportedGame:
    """Check a game record: format, keys, rules, seats and every hand replayed.

    ``where`` is the record's place in a larger file (a backup's ``games[2]``): every
    refusal points into the file from there.
    """
    if "format" not in data:
        raise FileRefused(path(where, ("format",)), Message(
            N_('missing: a game file says "format": "%(format)s"'), format=AsWritten(FORMAT)))
    if data["format"] != FORMAT:
        raise FileRefused(path(where, ("format",)), Message(
            N_("%(value)s is not %(format)s, the format this app reads"),
            value=AsWritten(shown(data["format"])), format=AsWritten(FORMAT)))
    check_hand_count(data.get("hands"), where)
    try:
        facts = GameFacts.model_validate(data)
    except ValidationError as error:
        raise shape_refusal(error, FORMAT, where) from None

    rules = _house_rules(where, facts.rules)
    names = _seat_names(where, facts.seats, rules.seats)
    try:
        first_dealer = check_seat(facts.first_dealer, rules.seats)
    except RuleViolation as violation:
        raise _rule_refusal(path(where, ("first_dealer",)), violation) from None
    deals = tuple(_deal_from(path(where, ("hands", index)), hand, rules)
                  for index, hand in enumerate(facts.hands))
    try:
        state = replay_deals(rules, first_dealer, deals)
    except HandRejected as rejected:
        raise _deal_refusal(path(where, ("hands", rejected.number - 1)),
                            rejected.violation) from None
    substitutes = _substitutes(where, names, facts.substitutes)
    return ImportedGame(rules, tuple(names), first_dealer, deals, state, substitutes)


# The part of a substitute each refusal is about, so the message can point at it.
_SUBSTITUTE_FIELDS = {
    "no_such_seat": "seat",
    "substitute_from_start": "from_hand",
    "no_such_hand": "from_hand",
    "substitute_there": "from_hand",
}


def _substitutes(where: str, names: list[str],
                 facts: list[SubstituteFacts]) -> tuple[Sitting, ...]:
    """The file's substitutes, each checked as one entered at the table is (against the
    game's seating with those before it in the file), but for its hand: any a game can
    hold. A substitute may wait for a hand the game has not reached: one who sat down for
    the next hand before the last was undone, or before a correction ended the game."""
    seating = starting_seating(dict(enumerate(names, start=1)))
    found = []
    for index, fact in enumerate(facts):
        problem = substitute_problem(seating, fact.seat, fact.from_hand, fact.name, MAX_HANDS)
        if problem is not None:
            field = _SUBSTITUTE_FIELDS.get(problem.code, "name")
            raise _rule_refusal(path(where, ("substitutes", index, field)), problem)
        sitting = Sitting(fact.seat, fact.from_hand, clean_name(fact.name))
        seating += (sitting,)
        found.append(sitting)
    return tuple(found)


def check_hand_count(hands: Any, where: str = "") -> None:
    """At most MAX_HANDS hands: checked before any hand is read, because a file of a
    legal size can hold tens of thousands of throw-ins, which would take minutes to read
    and make a game page nobody could open."""
    if isinstance(hands, list) and len(hands) > MAX_HANDS:
        raise FileRefused(path(where, ("hands",)), Message(
            N_("a game holds at most %(limit)s hands, not %(count)s"),
            limit=MAX_HANDS, count=len(hands)))


def read_hand(data: Any, where: str, rules: HouseRules, dealer: int) -> Deal:
    """Check one hand of a file on its own (its auction dealt by ``dealer``): a
    backup's undone hand, which no longer belongs to the game's run of hands."""
    try:
        facts = HandFacts.model_validate(data)
    except ValidationError as error:
        raise shape_refusal(error, FORMAT, where) from None
    deal = _deal_from(where, facts, rules)
    try:
        play_deal(rules, dealer, deal)
    except RuleViolation as violation:
        raise _deal_refusal(where, violation) from None
    return deal


def store_game(session: Session, club: Club, imported: ImportedGame,
               evening: Evening | None = None) -> Game:
    """Write a checked game (into ``evening``, stored or new, if given), committing once:
    on any failure nothing is left behind."""
    try:
        game = seat_game(session, club, imported.names,
                         new_game(club, imported.rules, imported.first_dealer, drawn=False,
                                  **in_evening(session, evening)),
                         imported.substitutes)
        for number, deal in enumerate(imported.deals, start=1):
            # The same columns as a hand recorded at the table, so the two can't differ.
            session.add(Hand(game_id=game.id, number=number,
                             **hand_fields(deal, imported.rules.team_names)))
        session.commit()
    except Exception:
        session.rollback()
        raise
    return game


def import_game(session: Session, club: Club, raw: bytes | str, limit: int | None = None,
                evening: Evening | None = None) -> Game:
    """Check a game file and store it as a new game (of ``evening``, if given);
    FileRefused if anything is wrong."""
    return store_game(session, club, read_game_file(raw, limit), evening)


_RULES_FIELDS = {"teams_invalid": ("teams",), "target_invalid": ("target",)}


def _house_rules(where: str, facts: RulesFacts) -> HouseRules:
    try:
        return HouseRules(teams=facts.teams, target=facts.target, **(facts.model_extra or {}))
    except RuleViolation as violation:
        field = _RULES_FIELDS.get(violation.code) or (violation.params.get("rule"),)
        raise _rule_refusal(path(where, ("rules", *filter(None, field))), violation) from None


def _seat_names(where: str, seats: list[str], table: int) -> list[str]:
    """The players in the file's seats, as many as its layout seats (``table``)."""
    try:
        return check_names(seats, table)
    except RuleViolation as violation:
        if violation.code == "seats_count":
            # How many seats there are, not a value of the file: said in the reader's digits.
            raise FileRefused(path(where, ("seats",)), Message(
                N_("%(problem)s, not %(value)s"), problem=violation, value=len(seats))) from None
        raise _rule_refusal(path(where, ("seats", violation.params["seat"] - 1)),
                            violation) from None


def _deal_from(where: str, hand: HandFacts, rules: HouseRules) -> Deal:
    """A hand's facts as a deal for the engine (a game played by ``rules``: its bids);
    ``where`` is the hand's place."""
    calls = []
    for turn, call in enumerate(hand.auction):
        try:
            calls.append(parse_call(call, rules.bids))
        except RuleViolation as violation:
            raise _rule_refusal(path(where, ("auction", turn)), violation) from None
    tally = None
    if hand.points is not None:
        points = hand.points
        tally = Tally(
            {point.value: getattr(points, point.value) for point in CARD_POINTS},
            points.game,
            points.game_values,
        )
    return Deal(tuple(calls), hand.trump, tally)


# The part of a hand each rule is about, so the message can point at it.
_HAND_FIELDS = {
    "out_of_turn": "auction",
    "auction_over": "auction",
    "bid_not_higher": "auction",
    "auction_unfinished": "auction",
    "trump_missing": "trump",
    "trump_invalid": "trump",
    "tally_missing": "points",
    "point_unknown": "points",
    "point_unassigned": "points",
    "game_value_invalid": "points.game_values",
    "game_values_over": "points.game_values",
    "game_disagrees": "points.game",
}


def _deal_refusal(where: str, violation: RuleViolation) -> FileRefused:
    """The engine's refusal of the hand at ``where``, pointed at the part it is about."""
    if violation.code == "point_not_a_team":
        point = violation.params["point"]
        # The engine's sentence starts with the point it is about; the path says it now.
        english = violation.english.removeprefix(f"{point}: ")
        return _rule_refusal(f"{where}.points.{point}",
                             RuleViolation(violation.code, english, **violation.params))
    field = _HAND_FIELDS.get(violation.code)
    return _rule_refusal(f"{where}.{field}" if field else where, violation)


# The value each rule refuses, as the engine was given it from the file: the engine's
# English names it, the page's sentence for the rule doesn't, so the page adds it.
_REFUSED_VALUES = {
    "seat_invalid": "seat",
    "teams_invalid": "teams",
    "target_invalid": "target",
    "house_rule_invalid": "value",
    "call_invalid": "call",
    "bid_not_higher": "bid",
    "trump_invalid": "trump",
    "point_not_a_team": "team",
    "game_value_invalid": "value",
}


def _rule_refusal(where: str, violation: RuleViolation) -> FileRefused:
    """A rule's refusal of the part at ``where``, with the value it refused."""
    key = _REFUSED_VALUES.get(violation.code)
    value = shown(violation.params[key]) if key in violation.params else None
    return FileRefused(where, violation, value)
