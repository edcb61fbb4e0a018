"""An evening's recap: a few lines for the table's chat group, and a picture of the night.

Who won how many games, each game's result and scores, and the night's moments
(``figures.moments``), all read off the hands each time: as lines, the text shared, and
as a picture (``figures.recap_picture``): the night's ranking, each game's scores as
bars, and the same moments.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from flask import render_template
from flask_babel import format_date, gettext as _
from markupsafe import Markup
from sqlmodel import Session

from scorekeeper.figures.moments import MOST_SWEEPS, Moment, MomentKind, evening_moments
from scorekeeper.figures.pictures import ISOLATE, LEFT_TO_RIGHT, POP_ISOLATE, Picture
from scorekeeper.figures.recap_picture import (
    GameScores, RankedPlayer, RecapFacts, TeamScore, recap_picture,
)
from scorekeeper.store.models import Evening
from scorekeeper.store.replay import Replay, load_replays
from scorekeeper.table.evenings import EveningTally, evening_games, tally
from scorekeeper.text.digits import ISOLATED
from scorekeeper.text.names import typed_text
from scorekeeper.web.languages import (
    RIGHT_TO_LEFT, current_language, request_translations, text_digits,
)
from scorekeeper.web.words import minus

ISOLATED_PARTS = re.compile(f"([{LEFT_TO_RIGHT}{ISOLATE}][^{POP_ISOLATE}]*{POP_ISOLATE})")
STOPS = re.compile("[.,;:!?،؛]+")  # what ends a part, never a line's start
MOST_PLAYERS = 8  # named in the line of games won; the rest are on the evening's page


def players(names: tuple[str, ...]) -> str:
    """A team's players: "Ann & Dan", "Ann, Cid & Eve"."""
    each = [typed_text(name) for name in names]
    return " & ".join([", ".join(each[:-1]), each[-1]] if len(each) > 2 else each)


def winners_line(games_won: EveningTally) -> str | None:
    won = [(name, count) for name, count in games_won.by_player if count]
    if not won:
        return None
    listed = ", ".join(f"{typed_text(name)} {count}" for name, count in won[:MOST_PLAYERS])
    return _("Games won: %(players)s.", players=listed)


def game_line(replay: Replay) -> str:
    state = replay.state
    scores = " · ".join(ISOLATED % f"{team} {minus(state.scores[team])}"
                        for team in replay.rules.team_names)
    if state.winner is None:
        return _("Game %(id)s, in play: %(scores)s.", id=replay.game.id, scores=scores)
    winners = players(tuple(replay.names[seat]
                            for seat in replay.rules.team_seats[state.winner]))
    return _("Game %(id)s: %(players)s won, %(scores)s.", id=replay.game.id,
             players=winners, scores=scores)


def moment_line(moment: Moment) -> str:
    said = {
        MomentKind.BIGGEST_MADE: _("Biggest bid made: %(bidder)s bid %(bid)s in game %(game)s."),
        MomentKind.BIGGEST_SET: _("Biggest set: %(bidder)s bid %(bid)s and was set in game "
                                  "%(game)s."),
        MomentKind.SWEEP: _("All six points: %(players)s in game %(game)s, hand %(hand)s."),
        MomentKind.COMEBACK: _("Comeback: %(players)s won game %(game)s from %(behind)s "
                               "points behind."),
    }[moment.kind]
    return said % dict(bidder=typed_text(moment.bidder or ""), bid=moment.bid,
                       game=moment.game_id, players=players(moment.players),
                       hand=moment.hand, behind=moment.behind)


def moment_lines(moments: list[Moment]) -> list[str]:
    sweeps = [m for m in moments if m.kind is MomentKind.SWEEP]
    told = [m for m in moments if m.kind is not MomentKind.SWEEP or m in sweeps[:MOST_SWEEPS]]
    lines = [moment_line(moment) for moment in told]
    if len(sweeps) > MOST_SWEEPS:
        more = len(sweeps) - MOST_SWEEPS
        lines.append(request_translations().ungettext(
            "And %(num)s more hand with all six points.",
            "And %(num)s more hands with all six points.", more) % {"num": more})
    return lines


@dataclass(frozen=True)
class Recap:
    """The evening's recap in the reader's language: its lines, (style, text) each, and
    what its picture shows."""

    lines: list[tuple[str, str]]
    facts: RecapFacts

    @property
    def picture(self) -> Picture:
        return recap_picture(self.facts, current_language() in RIGHT_TO_LEFT)


def evening_recap(session: Session, evening: Evening) -> Recap:
    """The evening's recap, read off its games' hands (abandoned games left out)."""
    replays = [replay for replay in load_replays(session, evening_games(session, evening))
               if replay.game.abandoned_at is None]
    games_won = tally(replays)
    moments = moment_lines(evening_moments(replays))
    title = _("Evening of %(day)s", day=format_date(evening.played_on))
    lines = [("title", title + (" · " + typed_text(evening.place) if evening.place else ""))]
    winners = winners_line(games_won)
    if winners:
        lines.append(("head", winners))
    lines += [("line", game_line(replay)) for replay in replays]
    if moments:
        lines.append(("head", _("The night's moments")))
        lines += [("line", line) for line in moments]
    if not replays:
        lines.append(("line", _("No game played yet.")))
    tables = len({replay.game.table_number for replay in replays}) > 1
    facts = RecapFacts(
        title=title, place=evening.place,
        ranking_head=_("The night's ranking"), won=_("Won"), played=_("Played"),
        ranking=tuple(RankedPlayer(place.place, place.name, place.won, place.played)
                      for place in games_won.ranking if games_won.finished),
        games=tuple(game_scores(replay, tables) for replay in replays),
        moments_head=_("The night's moments"), moments=tuple(moments),
        nothing=None if replays else _("No game played yet."),
        signature=_("Schmier scorekeeper"))
    return Recap(lines, facts)


def game_scores(replay: Replay, tables: bool) -> GameScores:
    """A game's final scores (its scores so far while in play), a team each, for the
    picture; ``tables``: the evening has more than one, and the heading names the game's."""
    state = replay.state
    heading = _("Game %(id)s", id=replay.game.id)
    if tables:
        heading = _("Table %(number)s", number=replay.game.table_number) + " · " + heading
    return GameScores(
        game=replay.game.id, heading=heading,
        status=None if state.finished else _("in play, hand %(number)s",
                                              number=state.next_number),
        target=replay.rules.target,
        teams=tuple(TeamScore(team, tuple(replay.names[seat]
                                          for seat in replay.rules.team_seats[team]),
                              state.scores[team], minus(state.scores[team]),
                              state.winner == team)
                    for team in replay.rules.team_names))


def recap_html(text: str) -> Markup:
    """A line of the recap for the page: each isolated part in a <bdi> (what was typed
    shown as typed), kept on one line with the stop right after it: a browser may break
    a line after an isolate, and left a lone "." on the next."""
    out: list[Markup] = []
    for part in ISOLATED_PARTS.split(text):
        stop = STOPS.match(part) if out and out[-1].startswith("<bdi") else None
        if stop:
            out[-1] = Markup('<span class="unbroken">%s%s</span>') % (out[-1], stop[0])
            part = part[stop.end():]
        out.append(Markup('<bdi translate="no">%s</bdi>') % part[1:-1] if part.startswith(ISOLATE)
                   else Markup("<bdi>%s</bdi>") % part[1:-1] if part.startswith(LEFT_TO_RIGHT)
                   else Markup.escape(part))
    return Markup("").join(out)


def recap_text(lines: list[tuple[str, str]]) -> str:
    """The recap as the text shared to a chat: a line each, in the reader's digits, a
    part isolated only where the text's direction needs it (``needs_isolating``)."""
    language = current_language()
    text = text_digits("\n".join(text for _style, text in lines), language)
    rtl = language in RIGHT_TO_LEFT
    return ISOLATED_PARTS.sub(
        lambda part: part[0] if needs_isolating(part[0][1:-1], rtl) else part[0][1:-1], text)


def needs_isolating(part: str, rtl: bool) -> bool:
    """Whether a part (a name, a team's score) must be isolated in text of that
    direction: it has a letter of the other direction (a Latin name in Persian, a
    Persian name in English), or, right to left, no letter at all ("−3" keeps its sign
    on its left)."""
    directions = {unicodedata.bidirectional(character) for character in part}
    other, own = ({"L"}, {"R", "AL"}) if rtl else ({"R", "AL"}, {"L"})
    return bool(directions & other) or (rtl and not directions & own)


def recap_svg(recap: Recap) -> str:
    """The picture as SVG (put in the reader's digits on its way out, as every SVG)."""
    return render_template("recap.svg", picture=recap.picture)
