"""An evening's recap as a picture for a phone's chat: the night at a glance.

Portrait, 1080 px wide (a phone's screen, as chat apps keep a picture), nothing smaller
than 36 px: under a band with the evening's date and place, the night's ranking (who won
how many of the games they played, ``table.evenings.ranked``), then each game's final
scores as a small bar chart (a bar per team, its letter, players and score beside it, a
star by the winner's), then the night's moments. Every text fits its line: a list of
names too long for it is broken between names, a sentence between words; a name or a
score never. For a right-to-left reader the whole picture is mirrored
(``pictures.Sheet``): bars grow from the right.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from itertools import groupby

from scorekeeper.figures.pictures import (
    ISOLATE, LEFT_TO_RIGHT, POP_ISOLATE, Picture, Sheet, fitted, name_lines, name_list,
    text_width, word_lines,
)
from scorekeeper.text.names import typed_text

WIDTH = 1080
PADDING = 60
SMALLEST = 36  # px: no text is drawn smaller
TITLE_SIZES = (64, 56, 48)
HEAD_SIZES = (48, 44, 40)
BODY = 40
BODY_SIZES = (BODY, 38, SMALLEST)
LEADING = 1.4  # a line's height, in its own size (Lao and Telugu reach high and low)
PORTRAIT = 1.25  # the picture at least this many times as tall as it is wide (4:5)

BAND, ON_BAND, ON_BAND_SOFT = "#0f3d2c", "#ffffff", "#cfe6da"
INK, MUTED, ACCENT = "#111111", "#4a5550", "#1a6b45"
# Each bar 3:1 or more against the white (WCAG's least for a graphic that tells something).
WINNER_BAR, OTHER_BAR, BELOW_ZERO_BAR, FIRST_PLACE = "#1f8a55", "#7f8f88", "#c8654f", "#e4f2e9"
BAR_HEIGHT = 30
STAR = BODY * 0.42  # the winner's star's radius
_COLON = re.compile(f"(?:[{LEFT_TO_RIGHT}{ISOLATE}][^{POP_ISOLATE}]*{POP_ISOLATE}|[^:])*?: ")


@dataclass(frozen=True)
class TeamScore:
    team: str  # its letter
    players: tuple[str, ...]  # as typed, in seat order
    score: int
    score_text: str  # as the reader writes it: "−3"
    won: bool


@dataclass(frozen=True)
class GameScores:
    game: int
    heading: str  # "Table 2 · Game 12"
    status: str | None  # while in play: "in play, hand 3"
    target: int
    teams: tuple[TeamScore, ...]


@dataclass(frozen=True)
class RankedPlayer:
    place: int
    name: str
    won: int
    played: int


@dataclass(frozen=True)
class RecapFacts:
    """What the picture tells, its words in the reader's language."""

    title: str  # "Evening of Dec 6, 2026"
    place: str | None  # where, as typed
    ranking_head: str
    won: str  # the ranking's columns
    played: str
    ranking: tuple[RankedPlayer, ...]  # none before a game is over
    games: tuple[GameScores, ...]
    moments_head: str
    moments: tuple[str, ...]  # sentences: "Comeback: Ann & Dan won game 3 from 6 points behind."
    nothing: str | None  # said when no game was played
    signature: str = ""  # the app's name, at the foot of the picture


def moment_parts(sentence: str) -> tuple[str | None, str]:
    """A moment's sentence as its label and the rest ("Comeback", "Ann & Dan won …"):
    up to its first colon outside a name; no label when it has none."""
    found = _COLON.match(sentence)
    if not found:
        return None, sentence
    return found[0][:-2], sentence[found.end():]


@dataclass(frozen=True)
class Names:
    """Where a game's teams' players are written: from ``x``, ``size`` px, in ``room``,
    ``beside`` their bars (else above them)."""

    x: float
    size: int
    room: float
    beside: bool


@dataclass(frozen=True)
class Axis:
    """A game's bars: where zero is, and how many px a point."""

    zero: float
    scale: float


class Layout:
    """The recap laid out on a sheet ``width`` wide, top to bottom (``y``: how far down
    the last line reaches). ``overflow``: how much wider the picture must be for a name
    that fits nowhere in it (a 40-letter name): it is drawn again that much wider."""

    def __init__(self, facts: RecapFacts, right_to_left: bool, width: int):
        self.facts = facts
        self.sheet = Sheet(width, right_to_left)
        self.width = width
        self.inner = width - 2 * PADDING  # where texts and bars may go
        self.y = 0.0
        self.overflow = 0.0

    def needs(self, text: str, size: int, room: float, bold: bool = False) -> None:
        """Note a text that must fit on one line in ``room`` (a name, a number)."""
        self.overflow = max(self.overflow, text_width(text, size, bold) - room)

    def line(self, size: int) -> float:
        """The next line's baseline, ``size`` px type."""
        self.y += size * LEADING
        return self.y

    def lines(self, text: str, sizes: tuple[int, ...], *, bold: bool = False,
              fill: str = INK, typed: bool = False) -> None:
        """A text across the picture, at the largest of ``sizes`` that fits on one line,
        else at the smallest broken between words; ``typed``: what someone typed (a
        place), each line of it drawn as typed."""
        size = fitted(text, sizes, self.inner, bold) or sizes[-1]
        for part in word_lines(text, size, self.inner, bold):
            part = typed_text(part) if typed else part
            self.needs(part, size, self.inner, bold)
            self.sheet.text(PADDING, self.line(size), size, part, bold=bold, fill=fill)

    def draw(self) -> Picture:
        facts = self.facts
        self.y = PADDING * 0.25
        self.lines(facts.title, TITLE_SIZES, bold=True, fill=ON_BAND)
        if facts.place:
            self.lines(facts.place, BODY_SIZES, fill=ON_BAND_SOFT, typed=True)
        band = self.y + PADDING * 0.6
        self.y = band + PADDING * 0.2
        if facts.ranking:
            self.ranking()
        if facts.games:
            self.games()
        if facts.moments:
            self.moments()
        if facts.nothing:
            self.lines(facts.nothing, BODY_SIZES)
        height = math.ceil(max(self.y + PADDING + SMALLEST * LEADING, self.width * PORTRAIT))
        if facts.signature:
            self.sheet.text(self.width - PADDING, height - PADDING * 0.7, SMALLEST,
                            facts.signature, fill=MUTED, anchor="end")
        return self.sheet.picture(height, band)

    def ranking(self) -> None:
        """The night's ranking: a row per place (players equal on every count share it),
        its players' names, then how many games they won and played."""
        facts = self.facts
        self.y += PADDING * 0.3
        self.lines(facts.ranking_head, HEAD_SIZES, bold=True)
        most = max(max(player.won, player.played) for player in facts.ranking)
        place_width = text_width(str(max(p.place for p in facts.ranking)), BODY, True)
        won_width = max(text_width(facts.won, SMALLEST), text_width(str(most), BODY, True))
        played_width = max(text_width(facts.played, SMALLEST), text_width(str(most), BODY))
        gap = 28
        names_x = PADDING + place_width + gap
        played_middle = self.width - PADDING - played_width / 2
        won_middle = played_middle - played_width / 2 - gap - won_width / 2
        names_room = won_middle - won_width / 2 - gap - names_x
        heads = self.line(SMALLEST)
        for label, middle in ((facts.won, won_middle), (facts.played, played_middle)):
            self.sheet.text(middle, heads, SMALLEST, label, fill=MUTED, anchor="middle")
        rows = groupby(facts.ranking, key=lambda p: (p.place, p.won, p.played))
        for (place, won, played), players in rows:
            names = tuple(player.name for player in players)
            first = place == 1 and won > 0
            for name in names:
                self.needs(typed_text(name) + ",", BODY, names_room, bold=first)
            lines = name_lines(names, BODY, names_room, bold=first, partners=False)
            if first:  # the night's winners on a ground of their own
                self.sheet.box(PADDING - 16, self.y + BODY * 0.3, self.inner + 32,
                               len(lines) * BODY * LEADING + BODY * 0.15, FIRST_PLACE)
            baseline = self.line(BODY)
            self.sheet.text(names_x - gap, baseline, BODY, str(place), bold=True,
                            anchor="end")
            self.sheet.text(won_middle, baseline, BODY, str(won), bold=True,
                            anchor="middle")
            self.sheet.text(played_middle, baseline, BODY, str(played),
                            fill=MUTED, anchor="middle")
            for number, text in enumerate(lines):
                y = baseline if number == 0 else self.line(BODY)
                self.sheet.text(names_x, y, BODY, text, bold=first)

    def games(self) -> None:
        """Each game's chart, its teams' players beside their bars where the widest
        list of them fits in 45% of the line at 36 px or more (the same size and room
        for every game, so that their bars line up), else above their bars."""
        teams = [team for game in self.facts.games for team in game.teams]
        widest = {size: max(text_width(" ".join(name_list(team.players)), size, team.won)
                            for team in teams) for size in BODY_SIZES}
        size = next((size for size in BODY_SIZES if widest[size] <= self.inner * 0.45), None)
        names_x = PADDING + max(text_width(team.team, BODY, True) for team in teams) + 18
        for game in self.facts.games:
            self.game(game, names_x, size or BODY, widest[size] if size else None)

    def game(self, game: GameScores, names_x: float, size: int, beside: float | None
             ) -> None:
        """A game's heading, then each team's letter and players (from ``names_x``,
        ``size`` px), beside its bar (``beside``: the players' room) or above it: its
        final score as a bar from zero (below zero: the other way), the number at the
        bar's end, a star by the winner's."""
        self.game_heading(game)
        names = Names(names_x, size, beside or self.width - PADDING - names_x, beside is not None)
        axis = self.axis(game, names.x + names.room + 28 if beside else names.x)
        bars = [self.team_row(game, team, names, axis) for team in game.teams]
        # The line of zero, along the game's bars (beside each bar only, where the
        # players' names are above the bars: it never crosses a name).
        reach = 8
        for top, bottom in ([(bars[0], bars[-1])] if beside else zip(bars, bars)):
            self.sheet.box(axis.zero - 1, top - reach, 2, bottom - top + BAR_HEIGHT + 2 * reach,
                           MUTED)

    def game_heading(self, game: GameScores) -> None:
        """"Table 1 · Game 3", and whether it is still in play beside it (or below)."""
        self.y += PADDING * 0.45
        heading_size = fitted(game.heading, HEAD_SIZES[1:], self.inner, True) or SMALLEST
        self.needs(game.heading, heading_size, self.inner, True)
        baseline = self.line(heading_size)
        self.sheet.text(PADDING, baseline, heading_size, game.heading, bold=True,
                        fill=ACCENT)
        if game.status:
            after = PADDING + text_width(game.heading + "  ", heading_size, True)
            if after + text_width(game.status, SMALLEST) <= self.width - PADDING:
                self.sheet.text(after, baseline, SMALLEST, game.status, fill=MUTED)
            else:
                self.lines(game.status, (SMALLEST,), fill=MUTED)

    def axis(self, game: GameScores, bars_x: float) -> Axis:
        """Where a game's bars start (its zero) and how long a point is: room for the
        target or the highest score, the lowest below zero, each number and a star."""
        number_room = max(text_width(team.score_text, BODY, True) for team in game.teams)
        bars_room = self.width - PADDING - bars_x - 14 - number_room - 12 - 2 * STAR
        above = max([game.target, *(team.score for team in game.teams)])
        below = max([0, *(-team.score for team in game.teams)])
        scale = bars_room / (above + below)  # px a point
        return Axis(bars_x + below * scale, scale)

    def team_row(self, game: GameScores, team, names: Names, axis: Axis) -> float:
        """One team's letter, players, bar, number and star; where its bar's top is."""
        for name in team.players:
            self.needs(typed_text(name) + " &", names.size, names.room, bold=team.won)
        baseline = self.line(BODY)
        self.sheet.text(PADDING, baseline, BODY, team.team, bold=True,
                        fill=ACCENT if team.won else INK)
        lines = name_lines(team.players, names.size, names.room, bold=team.won)
        for number, text in enumerate(lines):
            self.sheet.text(names.x, baseline if number == 0 else self.line(names.size),
                            names.size, text, bold=team.won)
        if not names.beside:
            baseline = self.line(BODY) - BODY * 0.15
            self.y += BODY * 0.2
        middle = baseline - BODY * 0.36
        length = abs(team.score) * axis.scale
        start = axis.zero if team.score >= 0 else axis.zero - length
        fill = WINNER_BAR if team.won else OTHER_BAR if team.score >= 0 else BELOW_ZERO_BAR
        self.sheet.box(start, middle - BAR_HEIGHT / 2, length, BAR_HEIGHT, fill,
                       game=game.game, team=team.team, score=team.score)
        number_x = axis.zero + max(team.score, 0) * axis.scale + 14
        self.sheet.text(number_x, baseline, BODY, team.score_text, bold=True)
        if team.won:
            self.sheet.star(number_x + text_width(team.score_text, BODY, True) + 12 + STAR,
                            middle, STAR, game.game)
        return middle - BAR_HEIGHT / 2

    def moments(self) -> None:
        """The night's moments, a line each where every one fits on a line (its label
        in bold: "Comeback: Ann & Dan won game 3 from 6 points behind.", all at one
        size), else each under its label, a label once for moments of one kind in a
        row."""
        self.y += PADDING * 0.6
        self.lines(self.facts.moments_head, HEAD_SIZES, bold=True)
        self.y += BODY * 0.1
        parts = [moment_parts(sentence) for sentence in self.facts.moments]
        sizes = [next((size for size in BODY_SIZES
                       if text_width(sentence[:len(sentence) - len(rest)], size, True)
                       + text_width(rest, size) <= self.inner), None)
                 for sentence, (_label, rest) in zip(self.facts.moments, parts)]
        if all(sizes):
            size = min(sizes)  # the same for every moment
            for sentence, (_label, rest) in zip(self.facts.moments, parts):
                self.sheet.text(PADDING, self.line(size), size, sentence,
                                strong=len(sentence) - len(rest), strong_fill=ACCENT)
            return
        for label, told in groupby(parts, key=lambda part: part[0]):
            self.y += BODY * 0.2
            if label:
                self.lines(label, BODY_SIZES, bold=True, fill=ACCENT)
            for _label, rest in told:
                self.lines(rest, BODY_SIZES)


def recap_picture(facts: RecapFacts, right_to_left: bool) -> Picture:
    """The picture of the evening; wider than ``WIDTH`` only for a name too long to fit
    anywhere on it."""
    width = WIDTH
    while True:
        layout = Layout(facts, right_to_left, width)
        drawn = layout.draw()
        if layout.overflow <= 0:
            return drawn
        width += math.ceil(layout.overflow)
