"""The six points of a hand, Game from game values, and what a hand scores.

RULES.md, "The six points of a hand" and "Scoring after each hand".
"""
import pytest

from scorekeeper.rules import CARD_POINTS, POINTS, Point, RuleViolation, Tally, score_hand
from scorekeeper.rules.scoring import decide_game

THREE = ("A", "B", "C")  # 3 teams of 2
TWO = ("A", "B")  # 2 teams of 3


def tally(owners, game=None, game_values=None):
    """owners: five team letters for High, Low, Right, Left, Joker, e.g. "ABBCC"."""
    names = ("high", "low", "right", "left", "joker")
    return Tally(dict(zip(names, owners, strict=True)), game=game, game_values=game_values)


def code_of(call, *args, **kwargs):
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value.code


# --- the points ----------------------------------------------------------------------

def test_the_six_points():
    assert [p.value for p in POINTS] == ["high", "low", "right", "left", "joker", "game"]
    assert [p.value for p in CARD_POINTS] == ["high", "low", "right", "left", "joker"]
    assert Point.GAME not in CARD_POINTS


@pytest.mark.parametrize(
    "teams, owners, game, taken",
    [
        (THREE, "ABBCC", "A", {"A": 2, "B": 2, "C": 2}),
        (THREE, "AAAAA", "A", {"A": 6, "B": 0, "C": 0}),
        (THREE, "AAAAA", None, {"A": 5, "B": 0, "C": 0}),
        (THREE, "CBACB", "B", {"A": 1, "B": 3, "C": 2}),
        (THREE, "CBACB", None, {"A": 1, "B": 2, "C": 2}),
        (TWO, "ABABA", "B", {"A": 3, "B": 3}),
        (TWO, "BBBBB", None, {"A": 0, "B": 5}),
    ],
)
def test_points_taken_one_per_card_point_and_one_for_game(teams, owners, game, taken):
    assert tally(owners, game).checked(teams).points_taken(teams) == taken


@pytest.mark.parametrize("teams", [THREE, TWO])
@pytest.mark.parametrize("game", ["A", "B", None])
def test_a_hand_gives_out_six_points_or_five_when_nobody_takes_game(teams, game):
    taken = tally("ABABB", game).checked(teams).points_taken(teams)
    assert sum(taken.values()) == (5 if game is None else 6)


def test_points_may_be_named_by_the_point_enum():
    points = {Point.HIGH: "A", Point.LOW: "B", Point.RIGHT: "C", Point.LEFT: "A", Point.JOKER: "A"}
    checked = Tally(points, game="B").checked(THREE)
    assert checked.points_taken(THREE) == {"A": 3, "B": 2, "C": 1}


# --- every card point to exactly one team --------------------------------------------

@pytest.mark.parametrize("missing", ["high", "low", "right", "left", "joker"])
def test_a_card_point_left_unassigned_is_refused(missing):
    points = {"high": "A", "low": "B", "right": "C", "left": "A", "joker": "B"}
    del points[missing]
    with pytest.raises(RuleViolation) as caught:
        Tally(points, game="A").checked(THREE)
    assert caught.value.code == "point_unassigned"
    assert caught.value.params["point"] == missing


@pytest.mark.parametrize("unset", ["high", "low", "right", "left", "joker"])
def test_a_card_point_given_to_none_is_unassigned(unset):
    points = {"high": "A", "low": "B", "right": "C", "left": "A", "joker": "B"}
    points[unset] = None
    assert code_of(Tally(points).checked, THREE) == "point_unassigned"


def test_no_card_points_at_all_is_refused():
    assert code_of(Tally({}, game="A").checked, THREE) == "point_unassigned"


@pytest.mark.parametrize(
    "team", ["D", "a", "", "AB", ("A", "B"), ["A", "B"], 1, True], ids=repr,
)
@pytest.mark.parametrize("point", ["high", "low", "right", "left", "joker"])
def test_a_card_point_given_to_something_that_is_not_one_team_is_refused(point, team):
    points = {"high": "A", "low": "B", "right": "C", "left": "A", "joker": "B"}
    points[point] = team
    with pytest.raises(RuleViolation) as caught:
        Tally(points).checked(THREE)
    assert caught.value.code == "point_not_a_team"
    assert caught.value.params["point"] == point


@pytest.mark.parametrize("point", ["high", "low", "right", "left", "joker"])
def test_team_c_does_not_exist_with_two_teams_of_three(point):
    points = {"high": "A", "low": "B", "right": "A", "left": "B", "joker": "A"}
    points[point] = "C"
    assert code_of(Tally(points).checked, TWO) == "point_not_a_team"


@pytest.mark.parametrize("teams, game", [(THREE, "D"), (TWO, "C"), (THREE, ""), (THREE, "a")])
def test_game_to_an_unknown_team_is_refused(teams, game):
    assert code_of(tally("ABABA", game).checked, teams) == "point_not_a_team"


@pytest.mark.parametrize("name", ["game", "trump", "ten", "jack"])
def test_an_unknown_point_is_refused(name):
    points = {"high": "A", "low": "B", "right": "C", "left": "A", "joker": "B", name: "A"}
    with pytest.raises(RuleViolation) as caught:
        Tally(points).checked(THREE)
    assert caught.value.code == "point_unknown"
    assert caught.value.params["point"] == name


# --- Game ----------------------------------------------------------------------------

@pytest.mark.parametrize(
    "teams, values, game",
    [
        (THREE, {"A": 30, "B": 20, "C": 31}, "C"),
        (THREE, {"A": 40, "B": 20, "C": 20}, "A"),  # a tie below the top does not matter
        (THREE, {"A": 30, "B": 30, "C": 21}, None),  # tied for the most: nobody
        (THREE, {"A": 10, "B": 35, "C": 35}, None),
        (THREE, {"A": 27, "B": 27, "C": 27}, None),
        (THREE, {"A": 81}, "A"),  # a team left out counts 0
        (THREE, {"B": 1}, "B"),
        (THREE, {"A": 0, "B": 0, "C": 0}, None),
        (THREE, {}, None),
        (TWO, {"A": 40, "B": 41}, "B"),
        (TWO, {"A": 40, "B": 40}, None),
        (TWO, {"A": 50}, "A"),
        (TWO, {"A": 81, "B": 0}, "A"),
    ],
)
def test_game_goes_to_the_most_game_value_and_to_nobody_on_a_tie(teams, values, game):
    assert decide_game(values, teams) == game
    checked = tally("ABABA", game_values=values).checked(teams)
    assert checked.game == game
    assert sum(checked.points_taken(teams).values()) == (5 if game is None else 6)


@pytest.mark.parametrize(
    "teams, values, game",
    [
        (THREE, {"A": 81, "B": 0, "C": 0}, "A"),
        (THREE, {"A": 27, "B": 27, "C": 27}, None),
        (TWO, {"A": 40, "B": 41}, "B"),
    ],
)
def test_game_values_may_add_up_to_81(teams, values, game):
    assert decide_game(values, teams) == game


@pytest.mark.parametrize(
    "teams, values, total",
    [
        (THREE, {"A": 30, "B": 30, "C": 22}, 82),
        (THREE, {"A": 82}, 82),
        (TWO, {"A": 41, "B": 41}, 82),
        (TWO, {"A": 100, "B": 0}, 100),
    ],
)
def test_game_values_over_81_are_refused(teams, values, total):
    with pytest.raises(RuleViolation) as caught:
        decide_game(values, teams)
    assert caught.value.code == "game_values_over"
    assert caught.value.params["total"] == total
    assert code_of(tally("ABABA", game_values=values).checked, teams) == "game_values_over"


@pytest.mark.parametrize("value", [-1, -40, 1.5, "10", None, True], ids=repr)
def test_a_game_value_must_be_a_whole_number_of_zero_or_more(value):
    values = {"A": value, "B": 10}
    assert code_of(decide_game, values, THREE) == "game_value_invalid"
    assert code_of(tally("ABCAB", game_values=values).checked, THREE) == "game_value_invalid"


@pytest.mark.parametrize("teams, stranger", [(THREE, "D"), (TWO, "C")])
def test_a_game_value_for_a_team_not_in_the_game_is_refused(teams, stranger):
    values = {"A": 10, stranger: 5}
    assert code_of(tally("ABABA", game_values=values).checked, teams) == "point_not_a_team"


@pytest.mark.parametrize(
    "game, values",
    [
        ("A", {"A": 10, "B": 20, "C": 5}),
        ("A", {"A": 20, "B": 20, "C": 5}),  # tied: nobody may have Game
        ("C", {"A": 10, "B": 20, "C": 5}),
    ],
)
def test_game_named_against_the_game_values_is_refused(game, values):
    assert code_of(tally("ABCAB", game, values).checked, THREE) == "game_disagrees"


def test_game_named_in_agreement_with_the_game_values_is_accepted():
    checked = tally("ABCAB", "B", {"A": 10, "B": 20, "C": 5}).checked(THREE)
    assert checked.game == "B"
    assert checked.points_taken(THREE) == {"A": 2, "B": 3, "C": 1}


# --- scoring a hand ------------------------------------------------------------------

@pytest.mark.parametrize(
    "teams, bidding_team, bid, owners, game, made, change",
    [
        # made, and more than the bid: the bidding team scores everything it took
        (THREE, "A", 3, "AAABC", "A", True, {"A": 4, "B": 1, "C": 1}),
        # made exactly
        (THREE, "B", 5, "BBBBA", "B", True, {"A": 1, "B": 5, "C": 0}),
        (THREE, "C", 6, "CCCCC", "C", True, {"A": 0, "B": 0, "C": 6}),
        (THREE, "A", 3, "AACBC", "A", True, {"A": 3, "B": 1, "C": 2}),
        # set: minus the bid, points taken lost; the others still score theirs
        (THREE, "A", 3, "AABBC", None, False, {"A": -3, "B": 2, "C": 1}),
        (THREE, "C", 6, "CCCCC", None, False, {"A": 0, "B": 0, "C": -6}),
        (THREE, "B", 4, "ABBCC", "A", False, {"A": 2, "B": -4, "C": 2}),
        (THREE, "A", 3, "BBBCC", "C", False, {"A": -3, "B": 3, "C": 3}),
        (THREE, "B", 5, "BBBBA", "A", False, {"A": 2, "B": -5, "C": 0}),
        # two teams of three
        (TWO, "B", 4, "ABABA", "B", False, {"A": 3, "B": -4}),
        (TWO, "A", 3, "AAABB", None, True, {"A": 3, "B": 2}),
        (TWO, "B", 5, "BBBBB", "A", True, {"A": 1, "B": 5}),
        (TWO, "A", 6, "AAAAA", "B", False, {"A": -6, "B": 1}),
    ],
)
def test_score_hand(teams, bidding_team, bid, owners, game, made, change):
    hand = score_hand(teams, bidding_team, bid, tally(owners, game))
    assert hand.made is made
    assert hand.score_change == change
    assert hand.bid == bid
    assert hand.bidding_team == bidding_team
    taken = {team: owners.count(team) + (game == team) for team in teams}
    assert hand.taken == taken


def test_the_worked_example():
    # Seat 2 (team B) bids 4. A takes High and Game; B Low and Right; C Left and Joker.
    hand = score_hand(THREE, "B", 4, tally("ABBCC", "A"))
    assert hand.taken == {"A": 2, "B": 2, "C": 2}
    assert hand.made is False
    assert hand.score_change == {"A": 2, "B": -4, "C": 2}


def test_the_worked_example_from_game_values():
    hand = score_hand(THREE, "B", 4, tally("ABBCC", game_values={"A": 40, "B": 25, "C": 16}))
    assert hand.score_change == {"A": 2, "B": -4, "C": 2}


@pytest.mark.parametrize("bid", [3, 4, 5, 6])
def test_a_bidding_team_that_takes_nothing_loses_its_bid(bid):
    hand = score_hand(THREE, "A", bid, tally("BBCCB", "C"))
    assert hand.score_change == {"A": -bid, "B": 3, "C": 3}


@pytest.mark.parametrize("bid", [3, 4, 5, 6])
def test_made_when_points_equal_the_bid(bid):
    owners = "A" * min(bid, 5) + "B" * (5 - min(bid, 5))
    game = "A" if bid == 6 else "B"
    hand = score_hand(THREE, "A", bid, tally(owners, game))
    assert hand.made is True
    assert hand.score_change["A"] == bid


@pytest.mark.parametrize("bid", [3, 4, 5, 6])
def test_set_when_one_point_short(bid):
    owners = "A" * (bid - 1) + "C" * (5 - (bid - 1))
    hand = score_hand(THREE, "A", bid, tally(owners, "C"))
    assert hand.made is False
    assert hand.score_change["A"] == -bid
    assert hand.score_change["C"] == 5 - (bid - 1) + 1


def test_score_hand_checks_the_tally():
    assert code_of(score_hand, THREE, "A", 3, Tally({"high": "A"})) == "point_unassigned"
