"""Charts drawn on the server as SVG: no chart script to download at the table."""
from __future__ import annotations

from dataclasses import dataclass, replace

from scorekeeper.ledger import Table

# The same team colours as the stylesheet, and a dash pattern each, so that the lines
# can be told apart without colour too.
TEAM_STYLE = {"A": ("#0b4f8a", ""), "B": ("#8a3b00", "6 3"), "C": ("#5b2a86", "2 3")}
WIDTH, HEIGHT = 340, 180
LEFT, RIGHT, TOP, BOTTOM = 30, 22, 10, 22  # room for the axis labels


@dataclass(frozen=True)
class Line:
    team: str
    colour: str
    dashes: str
    points: str  # "x,y x,y ..." for <polyline>
    end_x: float
    end_y: float
    final: int
    label_y: float = 0.0  # the team letter at the line's end, kept clear of the others


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


def score_chart(table: Table) -> ScoreChart:
    """The chart of ``table``'s game: x is the deal (0 = the start), y the score."""
    teams = table.rules.team_names
    history = [{team: 0 for team in teams}] + [d.scores_after for d in table.state.deals]
    target = table.rules.target
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

    lines = []
    for team in teams:
        colour, dashes = TEAM_STYLE[team]
        coordinates = [(x(deal), y(scores[team])) for deal, scores in enumerate(history)]
        lines.append(Line(
            team, colour, dashes, " ".join(f"{cx},{cy}" for cx, cy in coordinates),
            coordinates[-1][0], coordinates[-1][1], history[-1][team],
        ))
    lines = _labels_apart(lines)
    step = max(1, deals // 6 + (1 if deals % 6 else 0))
    x_ticks = tuple((x(deal), deal) for deal in range(0, deals + 1, step))
    y_ticks = _ticks_apart([(y(value), value) for value in (target, 0, low, high)])
    return ScoreChart(tuple(lines), y(target), y(0), low, high, deals, target, x_ticks, y_ticks)


LABEL_GAP = 12  # px between two team letters at the right edge


def _ticks_apart(ticks: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The axis labels, first ones first (the target, 0), leaving out any that would be
    drawn on top of one already there (a high score just over the target, say)."""
    kept: list[tuple[int, int]] = []
    for tick in ticks:
        if all(abs(tick[0] - other[0]) >= LABEL_GAP for other in kept):
            kept.append(tick)
    return tuple(sorted(kept, key=lambda tick: tick[1]))


def _labels_apart(lines: list[Line]) -> list[Line]:
    """Team letters at the lines' ends, moved down just enough not to overlap."""
    placed: dict[str, float] = {}
    previous = None
    for line in sorted(lines, key=lambda line: (line.end_y, line.team)):
        label_y = line.end_y + 4 if previous is None else max(line.end_y + 4, previous + LABEL_GAP)
        placed[line.team] = previous = label_y
    return [replace(line, label_y=placed[line.team]) for line in lines]


TREND_STYLE = (("win_rate", "#0b4f8a", ""), ("made_rate", "#8a3b00", "6 3"))


@dataclass(frozen=True)
class TrendChart:
    """Rates (0-100 %) over a player's evenings: one line per figure."""

    lines: tuple[tuple[str, str, str, str], ...]  # (figure, colour, dashes, points)
    evenings: int
    y_ticks: tuple[tuple[float, int], ...]
    width: int = WIDTH
    height: int = HEIGHT


def trend_chart(points) -> TrendChart:
    """Win rate and made rate after each evening; a gap where a rate has no value yet."""
    span_x = WIDTH - LEFT - RIGHT
    span_y = HEIGHT - TOP - BOTTOM
    count = len(points)

    def x(index: int) -> float:
        return round(LEFT + span_x * (index / (count - 1) if count > 1 else 0.5), 1)

    def y(share: float) -> float:
        return round(TOP + span_y * (1 - share), 1)

    lines = []
    for figure, colour, dashes in TREND_STYLE:
        coordinates = " ".join(
            f"{x(i)},{y(getattr(point, figure))}" for i, point in enumerate(points)
            if getattr(point, figure) is not None
        )
        lines.append((figure, colour, dashes, coordinates))
    y_ticks = tuple((y(share / 100), share) for share in (0, 50, 100))
    return TrendChart(tuple(lines), count, y_ticks)
