"""Games as JSON files (format schmier-game/1): export a game, check and store an import.

RULES.md, "Game files".

A file carries the recorded facts (rules, seats, first dealer and each deal's auction,
trump and points) and, on export, what they add up to. An import reads only the facts
and replays them through the rules engine, so a file can never bring in a score the
hands don't give; anything wrong refuses the whole file and nothing is stored.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar, Optional

from flask_babel import force_locale
from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr, ValidationError
from pydantic import model_validator
from pydantic_core import PydanticCustomError
from sqlmodel import Session

from scorekeeper.clubs import find_or_add_player
from scorekeeper.ledger import Table, hand_fields
from scorekeeper.models import Club, Game, GameSeat, Hand
from scorekeeper.rules import (
    CARD_POINTS, SEATS, Deal, DealResult, GameState, HandRejected, HouseRules,
    RuleViolation, Tally, replay,
)
from scorekeeper.rules.auction import parse_call
from scorekeeper.rules.table import check_seat
from scorekeeper.seating import check_names
from scorekeeper.words import verdict_sentence

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


class ImportRefused(ValueError):
    """A game file that can't be imported. ``where`` is the bad part, e.g. ``hands[3].trump``."""

    def __init__(self, where: str | None, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)
        self.where = where
        self.problem = problem


# --- export ---------------------------------------------------------------------------

def export_game(table: Table) -> dict[str, Any]:
    """The game as a schmier-game/1 record: the facts recorded and what they add up to."""
    state = table.state
    # The file is read by people and programs anywhere: its sentence is always English.
    with force_locale("en"):
        winner_reason = verdict_sentence(state.verdict)
    return {
        "format": FORMAT,
        "id": table.game.id,
        "created_at": table.game.created_at.isoformat(),
        "rules": {
            "teams": str(table.rules.teams),
            "target": table.rules.target,
            "bidder_goes_out": table.rules.bidder_goes_out,
        },
        "seats": [table.names[seat] for seat in SEATS],
        "first_dealer": table.game.first_dealer,
        "hands": [_hand_record(hand, deal) for hand, deal in zip(table.hands, state.deals)],
        "scores": dict(state.scores),
        "status": "finished" if state.finished else "playing",
        "winner": state.winner,
        "winner_reason": winner_reason,
        "next_dealer": None if state.finished else state.next_dealer,
    }


def export_text(table: Table) -> str:
    """The export as the text of a file."""
    return json.dumps(export_game(table), indent=2, ensure_ascii=False) + "\n"


def _hand_record(hand: Hand, deal: DealResult) -> dict[str, Any]:
    record: dict[str, Any] = {
        "auction": list(deal.auction.calls),
        "trump": None if deal.thrown_in else str(deal.trump),
        "points": None if deal.thrown_in else _points_record(hand),
        "dealer": deal.dealer_seat,
        "thrown_in": deal.thrown_in,
    }
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
    teams: StrictStr = DEFAULT_RULES.teams.value
    target: StrictInt = DEFAULT_RULES.target
    bidder_goes_out: StrictBool = DEFAULT_RULES.bidder_goes_out


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


class GameFacts(_Facts):
    derived_keys: ClassVar[frozenset[str]] = DERIVED_GAME_KEYS

    format: StrictStr
    rules: RulesFacts = RulesFacts()
    seats: list[StrictStr]
    first_dealer: StrictInt
    hands: list[HandFacts]


# --- import: checking and storing -----------------------------------------------------

@dataclass(frozen=True)
class ImportedGame:
    """A game file that passed every check, ready to store."""

    rules: HouseRules
    names: tuple[str, ...]
    first_dealer: int
    deals: tuple[Deal, ...]
    state: GameState


def read_game_file(raw: bytes | str, limit: int | None = None) -> ImportedGame:
    """Check a game file whole: JSON, format, keys, rules, seats and every hand replayed."""
    if limit is not None and len(raw) > limit:
        raise ImportRefused(
            None, f"the file is larger than {size_text(limit)}, the most a game file may be"
        )
    data = _json_from(raw)
    if not isinstance(data, dict):
        raise ImportRefused(None, f"a game file holds one JSON object, not {_json_kind(data)}")
    if "format" not in data:
        raise ImportRefused("format", f"missing: a game file says \"format\": \"{FORMAT}\"")
    if data["format"] != FORMAT:
        raise ImportRefused(
            "format", f"{_shown(data['format'])} is not {FORMAT}, the format this app reads"
        )
    hands = data.get("hands")
    if isinstance(hands, list) and len(hands) > MAX_HANDS:
        # Checked first: a file of a legal size can hold tens of thousands of throw-ins,
        # which would take minutes to read and make a game page nobody could open.
        raise ImportRefused("hands", f"a game holds at most {MAX_HANDS} hands, not {len(hands)}")
    try:
        facts = GameFacts.model_validate(data)
    except ValidationError as error:
        raise _shape_refusal(error) from None

    rules = _house_rules(facts.rules)
    names = _seat_names(facts.seats)
    try:
        first_dealer = check_seat(facts.first_dealer)
    except RuleViolation as violation:
        raise ImportRefused("first_dealer", violation.english) from None
    deals = tuple(_deal_from(index, hand) for index, hand in enumerate(facts.hands))
    try:
        state = replay(rules, first_dealer, deals)
    except HandRejected as rejected:
        raise _hand_refusal(rejected) from None
    return ImportedGame(rules, tuple(names), first_dealer, deals, state)


def store_game(session: Session, club: Club, imported: ImportedGame) -> Game:
    """Write a checked game, committing once: on any failure nothing is left behind."""
    rules = imported.rules
    try:
        game = Game(
            club_id=club.id, teams=str(rules.teams), target=rules.target,
            bidder_goes_out=rules.bidder_goes_out, first_dealer=imported.first_dealer,
            first_dealer_drawn=False,
        )
        session.add(game)
        session.flush()
        for seat, name in zip(SEATS, imported.names):
            player = find_or_add_player(session, club, name)
            session.add(GameSeat(game_id=game.id, seat=seat, player_id=player.id))
        for number, deal in enumerate(imported.deals, start=1):
            # The same columns as a hand recorded at the table, so the two can't differ.
            session.add(Hand(game_id=game.id, number=number,
                                 **hand_fields(deal, rules.team_names)))
        session.commit()
    except Exception:
        session.rollback()
        raise
    return game


def import_game(session: Session, club: Club, raw: bytes | str, limit: int | None = None) -> Game:
    """Check a game file and store it as a new game; ImportRefused if anything is wrong."""
    return store_game(session, club, read_game_file(raw, limit))


def size_text(size: int) -> str:
    """A byte count for people: 2 MB, 64 kB, 500 bytes."""
    if size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)} MB"
    if size % 1024 == 0:
        return f"{size // 1024} kB"
    return f"{size} bytes"


def _json_from(raw: bytes | str) -> Any:
    try:
        found = json.loads(raw)
    except UnicodeDecodeError:
        raise ImportRefused(None, "not JSON: the file is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ImportRefused(
            None, f"not JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        raise ImportRefused(None, "not JSON this app can read: it is nested too deeply") from None
    except ValueError as error:  # e.g. a number with more digits than Python will read
        raise ImportRefused(None, f"not JSON this app can read: {error}") from None
    if _holds_unstorable_text(found):
        raise ImportRefused(None, "a text in the file holds a null character or half of "
                                  "a surrogate pair, which can't be kept")
    return found


def _holds_unstorable_text(value: Any) -> bool:
    """Whether any text in the parsed JSON (a key or a value) holds what no database
    keeps: a NUL, or a lone surrogate (JSON's "\\ud800" escape, which isn't UTF-8)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item or not item.isascii() and _not_utf8(item):
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _not_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return _shown(value)
    if value is None:
        return "null"
    return "a number"


def _shown(value: Any) -> str:
    """A value as the file wrote it, cut short if long."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _where(loc: tuple[int | str, ...]) -> str:
    """A pydantic location as a path into the file: ``hands[3].points.high``."""
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


_TYPE_PROBLEMS = {
    "missing": "missing",
    "extra_forbidden": f"not a key of a {FORMAT} file",
    "model_type": "should be a JSON object",
    "model_attributes_type": "should be a JSON object",
    "dict_type": "should be a JSON object",
    "list_type": "should be a JSON list",
    "string_type": "should be a string",
    "int_type": "should be a whole number",
    "bool_type": "should be true or false",
}


def _shape_refusal(error: ValidationError) -> ImportRefused:
    """The first thing wrong with the file's shape (and how many more there are)."""
    errors = error.errors()
    first = errors[0]
    problem = _TYPE_PROBLEMS.get(first["type"], first["msg"])
    if first["type"] not in ("missing", "extra_forbidden", "game_missing"):
        problem += f", not {_shown(first['input'])}"
    if len(errors) > 1:
        problem += f" (and {len(errors) - 1} more)"
    return ImportRefused(_where(first["loc"]) or None, problem)


_RULES_FIELDS = {
    "teams_invalid": "rules.teams",
    "target_invalid": "rules.target",
    "bidder_goes_out_invalid": "rules.bidder_goes_out",
}


def _house_rules(facts: RulesFacts) -> HouseRules:
    try:
        return HouseRules(
            teams=facts.teams, target=facts.target, bidder_goes_out=facts.bidder_goes_out
        )
    except RuleViolation as violation:
        raise ImportRefused(_RULES_FIELDS.get(violation.code, "rules"), violation.english) from None


def _seat_names(seats: list[str]) -> list[str]:
    try:
        return check_names(seats)
    except RuleViolation as violation:
        if violation.code == "seats_count":
            raise ImportRefused("seats", f"{violation.english}, not {len(seats)}") from None
        raise ImportRefused(f"seats[{violation.params['seat'] - 1}]", violation.english) from None


def _deal_from(index: int, hand: HandFacts) -> Deal:
    calls = []
    for turn, call in enumerate(hand.auction):
        try:
            calls.append(parse_call(call))
        except RuleViolation as violation:
            raise ImportRefused(f"hands[{index}].auction[{turn}]", violation.english) from None
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


def _hand_refusal(rejected: HandRejected) -> ImportRefused:
    """The engine's refusal of hand N as a path into the file: ``hands[N-1]...``."""
    where = f"hands[{rejected.number - 1}]"
    english = rejected.violation.english
    if rejected.code == "point_not_a_team":
        point = rejected.params["point"]
        # The engine's sentence starts with the point it is about; the path says it now.
        return ImportRefused(f"{where}.points.{point}", english.removeprefix(f"{point}: "))
    field = _HAND_FIELDS.get(rejected.code)
    return ImportRefused(f"{where}.{field}" if field else where, english)
