"""Charts drawn on the server as SVG: no chart script to download at the table."""
from __future__ import annotations

from dataclasses import dataclass, replace

from scorekeeper.figures.ratings import START
from scorekeeper.store.replay import Replay

# The same team colours as the stylesheet, and a dash pattern each, so that the lines
# can be told apart without colour too.
# Each team's colour (the page's, static/app.css) and dashes, told apart without colour.
TEAM_STYLE = {"A": ("#0b4f8a", ""), "B": ("#8a3b00", "6 3"), "C": ("#5b2a86", "2 3"),
              "D": ("#1d5c1d", "8 2 2 2"), "E": ("#8a1043", "1 2"), "F": ("#005a5a", "4 4")}
WIDTH, HEIGHT = 340, 180
LEFT, RIGHT, TOP, BOTTOM = 30, 22, 10, 22  # room for the axis labels


@dataclass(frozen=True)
class Line:
    """One line of a chart: what it shows (a team's letter, a figure's name), its style,
    its points, and its last value, written at its end clear of the other lines'."""

    name: str
    colour: str
    dashes: str
    marks: tuple[tuple[float, float], ...]  # (x, y) of each point, left to right
    final: float
    label_y: float = 0.0

    @property
    def points(self) -> str:
        """"x,y x,y ..." for <polyline>."""
        return " ".join(f"{x},{y}" for x, y in self.marks)

    @property
    def end_x(self) -> float:
        return self.marks[-1][0]

    @property
    def end_y(self) -> float:
        return self.marks[-1][1]


@dataclass(frozen=True)
class ScoreChart:
    """A game's scores after every deal, one line per team, with the target marked."""

    lines: tuple[Line, ...]
    target_y: float
    zero_y: float
    low: int
    high: int
    deals: int
    target: int
    x_ticks: tuple[tuple[float, int], ...]
    y_ticks: tuple[tuple[float, int], ...]
    width: int = WIDTH
    height: int = HEIGHT


def score_chart(replay: Replay) -> ScoreChart:
    """The chart of ``replay``'s game: x is the deal (0 = the start), y the score."""
    teams = replay.rules.team_names
    history = [{team: 0 for team in teams}] + [d.scores_after for d in replay.state.deals]
    target = replay.rules.target
    low = min(0, *(scores[t] for scores in history for t in teams))
    high = max(target, *(scores[t] for scores in history for t in teams))
    deals = len(history) - 1
    span_x = WIDTH - LEFT - RIGHT
    span_y = HEIGHT - TOP - BOTTOM

    # Whole units: the chart is drawn about one unit to a pixel, and a game's points
    # are most of its page's numbers.
    def x(deal: int) -> int:
        return round(LEFT + span_x * (deal / deals if deals else 0))

    def y(score: int) -> int:
        return round(TOP + span_y * (high - score) / (high - low or 1))

    lines = _labels_apart([
        Line(team, *TEAM_STYLE[team],
             tuple((x(deal), y(scores[team])) for deal, scores in enumerate(history)),
             history[-1][team])
        for team in teams])
    step = max(1, deals // 6 + (1 if deals % 6 else 0))
    x_ticks = tuple((x(deal), deal) for deal in range(0, deals + 1, step))
    y_ticks = _ticks_apart([(y(value), value) for value in (target, 0, low, high)])
    return ScoreChart(lines, y(target), y(0), low, high, deals, target, x_ticks, y_ticks)


LABEL_GAP = 12  # px between two labels at the lines' ends
# px between two figures along the side: their 11 px digits (a minus sign's too) need a
# line and a half, or "−2" under "0" reads as one smudge.
TICK_GAP = 16


def _ticks_apart(ticks: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The axis labels, first ones first (the target, 0), leaving out any that would
    crowd one already there (a high score just over the target, a low just under 0)."""
    kept: list[tuple[int, int]] = []
    for tick in ticks:
        if all(abs(tick[0] - other[0]) >= TICK_GAP for other in kept):
            kept.append(tick)
    return tuple(sorted(kept, key=lambda tick: tick[1]))


def _labels_apart(lines: list[Line]) -> tuple[Line, ...]:
    """The labels at the lines' ends, moved apart just enough not to overlap: lines
    ending on one value get theirs one above the other (in the lines' order), inside
    the chart."""
    ordered = sorted(range(len(lines)), key=lambda i: (lines[i].end_y, i))
    centres = spread([lines[i].end_y for i in ordered], LABEL_GAP, TOP, HEIGHT - BOTTOM)
    label_y = {i: round(centre + 4, 1) for i, centre in zip(ordered, centres)}
    return tuple(replace(line, label_y=label_y[i]) for i, line in enumerate(lines))


def spread(wanted: list[float], gap: float, low: float, high: float) -> list[float]:
    """Where to put labels wanted at ``wanted`` (in that order, top to bottom) so that
    no two are closer than ``gap``: each bunch that would overlap is spaced evenly
    around where its labels wanted to be, then kept between ``low`` and ``high``."""
    bunches: list[tuple[float, list[int]]] = []  # (the first one's place, its labels)
    for index, place in enumerate(wanted):
        bunches.append((place, [index]))
        while len(bunches) > 1 and bunches[-2][0] + gap * len(bunches[-2][1]) > bunches[-1][0]:
            members = bunches[-2][1] + bunches[-1][1]
            middle = sum(wanted[i] for i in members) / len(members)
            bunches[-2:] = [(middle - gap * (len(members) - 1) / 2, members)]
    places = [first + gap * k for first, members in bunches for k in range(len(members))]
    last = len(places) - 1
    places = [max(place, low + gap * k) for k, place in enumerate(places)]
    return [min(place, high - gap * (last - k)) for k, place in enumerate(places)]


TREND_STYLE = (("win_rate", "#0b4f8a", ""), ("made_rate", "#8a3b00", "6 3"))
TREND_LEFT, TREND_RIGHT = 36, 40  # room for "100%" beside the axis and at a line's end
TREND_TICKS = 6  # the most evening numbers along the bottom


@dataclass(frozen=True)
class TrendChart:
    """Figures over a player's evenings (rates of 0-100 %, or the rating): one line per
    figure, a point for each evening or each game (``by_game``), and the player's
    evenings numbered along the bottom (1 = their first), under each one's last point."""

    lines: tuple[Line, ...]
    points: int
    x_ticks: tuple[tuple[float, int], ...]
    y_ticks: tuple[tuple[float, int], ...]
    plot_left: int = TREND_LEFT
    plot_right: int = WIDTH - TREND_RIGHT
    width: int = WIDTH
    height: int = HEIGHT
    by_game: bool = False


def _evenings_along(points):
    """Where each point stands along the bottom (one point: in the middle), and the
    evening numbers written under each evening's last point (the figures as the evening
    left them): at most TREND_TICKS, the latest always."""
    span_x = WIDTH - TREND_LEFT - TREND_RIGHT
    count = len(points)

    def x(index: int) -> float:
        return round(TREND_LEFT + span_x * (index / (count - 1) if count > 1 else 0.5), 1)

    lasts = [i for i, point in enumerate(points)
             if i == count - 1 or points[i + 1].number != point.number]
    step = max(1, -(-len(lasts) // TREND_TICKS))  # ceiling division
    return x, tuple((x(i), points[i].number) for k, i in enumerate(lasts)
                    if (len(lasts) - 1 - k) % step == 0)


def trend_chart(points, by_game: bool = False) -> TrendChart:
    """Win rate and made rate after each evening, or each game (``by_game``: the points
    of one evening share its number); a line starts once its rate has a value (a
    finished game, a bid). One point is a mark per rate, in the middle."""
    span_y = HEIGHT - TOP - BOTTOM
    count = len(points)
    x, x_ticks = _evenings_along(points)

    def y(share: float) -> float:
        return round(TOP + span_y * (1 - share), 1)

    lines = []
    for figure, colour, dashes in TREND_STYLE:
        known = [(i, getattr(point, figure)) for i, point in enumerate(points)
                 if getattr(point, figure) is not None]
        if known:
            lines.append(Line(figure, colour, dashes,
                              tuple((x(i), y(share)) for i, share in known), known[-1][1]))
    y_ticks = tuple((y(share / 100), share) for share in (0, 50, 100))
    return TrendChart(_labels_apart(lines), count, x_ticks, y_ticks, by_game=by_game)


RATING_STYLE = ("rating", "#0b4f8a", "")


def rating_chart(points) -> TrendChart:
    """A player's rating's number after each of their evenings (``ratings.RatingPoint``s,
    oldest first): one line, the lowest and highest number (and 1500, where everyone
    starts, when the line crosses it) along the side."""
    values = [point.rating.points for point in points]
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    span_y = HEIGHT - TOP - BOTTOM

    def y(value: int) -> float:
        return round(TOP + span_y * (high - value) / (high - low), 1)

    x, x_ticks = _evenings_along(points)
    line = Line(*RATING_STYLE, tuple((x(i), y(value)) for i, value in enumerate(values)),
                values[-1])
    wanted = [(y(value), value) for value in (high, low)]
    if low < START < high:
        wanted.append((y(START), START))
    return TrendChart(_labels_apart([line]), len(points), x_ticks, _ticks_apart(wanted))
