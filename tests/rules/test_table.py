"""Seats, "left of", both team layouts and the house rules a game starts with.

RULES.md, "Table" and "House rules".
"""
import pytest

from scorekeeper.rules import SEATS, HouseRules, RuleViolation, TeamLayout, left_of, team_of, teams_for


# --- seats and "left of" -------------------------------------------------------------

def test_six_seats_numbered_one_to_six():
    assert SEATS == (1, 2, 3, 4, 5, 6)


@pytest.mark.parametrize(
    "seat, left", [(1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 1)],
)
def test_left_of_is_the_next_seat_clockwise(seat, left):
    assert left_of(seat) == left


def test_left_of_six_wraps_round_to_one():
    assert left_of(6) == 1


@pytest.mark.parametrize("seat", SEATS)
def test_going_left_six_times_comes_back_to_the_same_seat(seat):
    visited = [seat]
    for _ in range(6):
        visited.append(left_of(visited[-1]))
    assert visited[-1] == seat
    assert sorted(visited[:6]) == [1, 2, 3, 4, 5, 6]  # every seat once on the way


@pytest.mark.parametrize("seat", [0, 7, -1, 100, "1", 1.0, True, None])
def test_left_of_refuses_what_is_not_a_seat(seat):
    with pytest.raises(RuleViolation) as caught:
        left_of(seat)
    assert caught.value.code == "seat_invalid"


# --- teams ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "seat, team", [(1, "A"), (2, "B"), (3, "C"), (4, "A"), (5, "B"), (6, "C")],
)
def test_default_layout_three_teams_of_two(seat, team):
    assert team_of(seat, TeamLayout.THREE_PAIRS) == team


@pytest.mark.parametrize(
    "seat, team", [(1, "A"), (2, "B"), (3, "A"), (4, "B"), (5, "A"), (6, "B")],
)
def test_house_rule_layout_two_teams_of_three(seat, team):
    assert team_of(seat, TeamLayout.TWO_TRIOS) == team


def test_teams_for_three_pairs():
    assert teams_for(TeamLayout.THREE_PAIRS) == {"A": (1, 4), "B": (2, 5), "C": (3, 6)}


def test_teams_for_two_trios():
    assert teams_for(TeamLayout.TWO_TRIOS) == {"A": (1, 3, 5), "B": (2, 4, 6)}


def test_layouts_are_named_3x2_and_2x3():
    assert TeamLayout("3x2") is TeamLayout.THREE_PAIRS
    assert TeamLayout("2x3") is TeamLayout.TWO_TRIOS
    assert teams_for("2x3") == {"A": (1, 3, 5), "B": (2, 4, 6)}


@pytest.mark.parametrize("layout", list(TeamLayout))
def test_partners_never_sit_side_by_side(layout):
    seats = layout.seats
    for seat in range(1, seats + 1):
        assert team_of(seat, layout) != team_of(left_of(seat, seats), layout)


@pytest.mark.parametrize("layout", list(TeamLayout))
def test_every_seat_is_on_exactly_one_team(layout):
    teams = teams_for(layout)
    seats = [seat for members in teams.values() for seat in members]
    assert sorted(seats) == list(range(1, layout.seats + 1))
    for team, members in teams.items():
        for seat in members:
            assert team_of(seat, layout) == team


@pytest.mark.parametrize("layout", list(TeamLayout))
@pytest.mark.parametrize("seat", [0, 7, "3", None])
def test_team_of_refuses_what_is_not_a_seat(layout, seat):
    with pytest.raises(RuleViolation) as caught:
        team_of(seat, layout)
    assert caught.value.code == "seat_invalid"


def test_teams_for_does_not_hand_out_the_shared_table():
    teams = teams_for(TeamLayout.THREE_PAIRS)
    teams["A"] = (1, 2)
    assert teams_for(TeamLayout.THREE_PAIRS)["A"] == (1, 4)


# --- house rules ---------------------------------------------------------------------

def test_house_rule_defaults_three_pairs_target_21_bidder_goes_out_off():
    rules = HouseRules()
    assert rules.teams is TeamLayout.THREE_PAIRS
    assert rules.target == 21
    assert rules.bidder_goes_out is False
    assert rules.team_names == ("A", "B", "C")
    assert rules.team_seats == {"A": (1, 4), "B": (2, 5), "C": (3, 6)}


def test_house_rules_two_trios():
    rules = HouseRules(teams="2x3")
    assert rules.teams is TeamLayout.TWO_TRIOS
    assert rules.team_names == ("A", "B")
    assert rules.team_seats == {"A": (1, 3, 5), "B": (2, 4, 6)}


@pytest.mark.parametrize("target", [1, 5, 11, 15, 21, 31, 50, 999])
def test_any_target_may_be_chosen(target):
    assert HouseRules(target=target).target == target


@pytest.mark.parametrize("target", [0, -21, 1000, "21", 21.0, True, None])
def test_a_target_that_is_not_a_whole_positive_number_is_refused(target):
    with pytest.raises(RuleViolation) as caught:
        HouseRules(target=target)
    assert caught.value.code == "target_invalid"


@pytest.mark.parametrize("teams", ["3x3", "6x1", "", None, "A"])
def test_an_unknown_team_layout_is_refused(teams):
    with pytest.raises(RuleViolation) as caught:
        HouseRules(teams=teams)
    assert caught.value.code == "teams_invalid"


@pytest.mark.parametrize("flag", [True, False])
def test_bidder_goes_out_is_a_switch(flag):
    assert HouseRules(bidder_goes_out=flag).bidder_goes_out is flag


@pytest.mark.parametrize("flag", ["yes", 1, 0, None])
def test_bidder_goes_out_must_be_true_or_false(flag):
    with pytest.raises(RuleViolation) as caught:
        HouseRules(bidder_goes_out=flag)
    assert caught.value.code == "house_rule_invalid"
    assert caught.value.params["rule"] == "bidder_goes_out"
