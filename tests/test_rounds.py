"""The next round of an evening of several tables: tables of six and the rest sitting
out, sit-outs in turn, tables that mix, partners that rotate, late arrivals and leavers.

The expected answers are worked out here by hand, or by trying every way in plain loops
(the teams read off the seats as RULES.md gives them), never with the module's helpers.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise, permutations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from scorekeeper.figures.rounds import Round, next_round

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim",
         "Lou", "Mia", "Ned", "Oda", "Pia", "Quy", "Rex"]
TWELVE, THIRTEEN = NAMES[:12], NAMES[:13]
# The seats of each team (RULES.md): partners never sit side by side.
TEAM_SEATS = {"3x2": [(1, 4), (2, 5), (3, 6)], "2x3": [(1, 3, 5), (2, 4, 6)]}


def evening(present, rounds, layout="3x2", history=()):
    """``rounds`` rounds played as proposed, each added to the evening's history."""
    history = list(history)
    for _ in range(rounds):
        history.append(next_round(present, history, layout))
    return history


def teams_at(chairs, layout):
    """The teams of a table seated so (chairs seat by seat), each as a set."""
    return {frozenset(chairs[seat - 1] for seat in seats) for seats in TEAM_SEATS[layout]}


def partners_so_far(history) -> Counter:
    """Each two players -> the games they were partners in, counted table by table."""
    count = Counter()
    for played in history:
        for chairs in played.tables:
            for team in teams_at(chairs, played.layout):
                count.update(frozenset(two) for two in combinations(team, 2))
    return count


def sat_out_so_far(history, present) -> dict:
    return {player: sum(player in played.sitting_out for played in history)
            for player in present}


def shared_a_table(history) -> Counter:
    count = Counter()
    for played in history:
        for chairs in played.tables:
            count.update(frozenset(two) for two in combinations(chairs, 2))
    return count


def cost_of(tables, history) -> int:
    """For each two at one table, the rounds they already shared a table."""
    shared = shared_a_table(history)
    return sum(shared[frozenset(two)] for table in tables for two in combinations(table, 2))


def same_six_again(before, after) -> bool:
    """Whether a table of six of ``after`` is one of ``before``'s."""
    return bool({frozenset(t) for t in before.tables} & {frozenset(t) for t in after.tables})


def each_placed_once(proposal, present) -> bool:
    placed = [player for chairs in proposal.tables for player in chairs]
    placed += list(proposal.sitting_out)
    return sorted(placed, key=str) == sorted(present, key=str)


# --- tables of six and who sits out ------------------------------------------------


@pytest.mark.parametrize("present", [[], NAMES[:1], NAMES[:5]])
def test_fewer_than_six_make_no_table_and_everyone_waits(present):
    assert next_round(present, [], "3x2") == Round((), tuple(present), "3x2")


@pytest.mark.parametrize("count, tables, out", [
    (6, 1, 0), (7, 1, 1), (11, 1, 5), (12, 2, 0), (13, 2, 1), (17, 2, 5), (18, 3, 0)])
def test_a_table_for_each_six_and_the_rest_sit_out(count, tables, out):
    proposal = next_round(NAMES[:count], [], "3x2")
    assert len(proposal.tables) == tables and len(proposal.sitting_out) == out
    assert all(len(set(chairs)) == 6 for chairs in proposal.tables)
    assert each_placed_once(proposal, NAMES[:count])


def test_seven_players_sit_out_in_turn():
    """Round 1: nobody has sat out or played, so the last listed sits out (the first
    come are the first seated). Round 2: the six who played have played more than the
    one who sat out: the last of them. And so on."""
    history = evening(NAMES[:7], 8)
    last_first = NAMES[:7][::-1]
    assert [played.sitting_out for played in history] == [
        (name,) for name in last_first + last_first[:1]]
    for played in history:
        assert set(played.tables[0]) == set(NAMES[:7]) - set(played.sitting_out)


def test_thirteen_players_two_tables_and_one_sitting_out_through_the_evening():
    """Everyone sits out once before anyone sits out twice; round 14 starts again."""
    history = evening(THIRTEEN, 14)
    assert [played.sitting_out for played in history[:13]] == [(n,) for n in THIRTEEN[::-1]]
    assert history[13].sitting_out == (THIRTEEN[-1],)
    for played in history:
        assert len(played.tables) == 2 and each_placed_once(played, THIRTEEN)
    for before, after in pairwise(history):
        assert not same_six_again(before, after)


def test_twelve_players_mix_half_and_half_in_the_second_round():
    """Round 1: nothing played, every cut costs nothing: the first six and the others.
    Round 2: a table of k from one table and 6 - k from the other costs
    C(k,2) + C(6-k,2) rounds shared; k = 3 is the cheapest, 3 + 3 a table."""
    first, second = evening(TWELVE, 2)
    assert {frozenset(t) for t in first.tables} == {frozenset(TWELVE[:6]),
                                                    frozenset(TWELVE[6:])}
    assert second.sitting_out == ()
    for table in second.tables:
        assert [len(set(table) & set(old)) for old in first.tables] == [3, 3]


def test_a_late_arrival_has_sat_out_nothing_and_played_nothing():
    """Mia comes after two rounds of twelve. All have sat out no round, but the twelve
    have played more: they sit out first, in turn, and Mia only once they all have."""
    history = evening(THIRTEEN, 13, history=evening(TWELVE, 2))
    assert [played.sitting_out for played in history[2:]] == [
        (name,) for name in TWELVE[::-1] + ["Mia"]]


def test_a_player_who_left_is_not_seated():
    history = evening(THIRTEEN, 3)
    stayed = [name for name in THIRTEEN if name != "Cid"]
    proposal = next_round(stayed, history, "3x2")
    assert proposal.sitting_out == () and each_placed_once(proposal, stayed)


def test_the_same_evening_gives_the_same_proposal():
    history = evening(THIRTEEN, 4, "2x3")
    assert next_round(list(THIRTEEN), list(history), "2x3") == next_round(
        THIRTEEN, history, "2x3")


def test_a_player_present_twice_is_refused():
    with pytest.raises(ValueError):
        next_round(["Ann", *NAMES[:6]], [], "3x2")


# --- tables that mix ---------------------------------------------------------------


def cheapest_two_tables(playing, history) -> int:
    """Every way to cut twelve into two tables: the one with the first player, and the
    others."""
    first, rest = playing[0], playing[1:]
    return min(cost_of([table, [p for p in playing if p not in table]], history)
               for table in ([first, *five] for five in combinations(rest, 5)))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.permutations(range(12)), min_size=1, max_size=6), st.permutations(range(12)))
def test_two_tables_are_the_cheapest_cut_of_all(shuffles, present):
    """Rounds seated any way, then the proposal: no cut of twelve shares fewer tables."""
    history = [Round((tuple(order[:6]), tuple(order[6:])), (), "3x2")
               for order in shuffles]
    proposal = next_round(present, history, "3x2")
    assert cost_of(proposal.tables, history) == cheapest_two_tables(present, history)


def test_three_tables_mix_and_no_exchange_of_two_players_would_mix_them_more():
    history = evening(NAMES[:18], 4)
    for before, after in pairwise(history):
        assert not same_six_again(before, after)
    proposal = next_round(NAMES[:18], history, "3x2")
    tables = [list(table) for table in proposal.tables]
    cost = cost_of(tables, history)
    for one, other in combinations(range(3), 2):
        for here, there in ((a, b) for a in range(6) for b in range(6)):
            swapped = [list(table) for table in tables]
            swapped[one][here], swapped[other][there] = tables[other][there], tables[one][here]
            assert cost_of(swapped, history) >= cost


# --- partners and seats ------------------------------------------------------------


def every_split_of(six, layout):
    """Every split of six players into the layout's teams, from every seating."""
    return {frozenset(teams_at(chairs, layout)) for chairs in permutations(six)}


def repeats(teams, partnered) -> int:
    return sum(partnered[frozenset(two)] for team in teams for two in combinations(team, 2))


@pytest.mark.parametrize("layout", ["3x2", "2x3"])
@pytest.mark.parametrize("present", [NAMES[:6], NAMES[:7], TWELVE, THIRTEEN])
def test_each_table_seats_the_partners_who_partnered_least(layout, present):
    """The teams read off each table's seats repeat as few partnerships as any split of
    its six could (every split tried)."""
    history = []
    for _ in range(6):
        proposal = next_round(present, history, layout)
        partnered = partners_so_far(history)
        for chairs in proposal.tables:
            teams = teams_at(chairs, layout)
            assert all(len(team) == len(TEAM_SEATS[layout][0]) for team in teams)
            assert repeats(teams, partnered) == min(
                repeats(split, partnered) for split in every_split_of(chairs, layout))
        history.append(proposal)


def test_six_players_in_pairs_have_each_other_player_as_partner_once_in_five_rounds():
    partnered = partners_so_far(evening(NAMES[:6], 5))
    assert partnered == Counter({frozenset(two): 1 for two in combinations(NAMES[:6], 2)})


def last_seat_numbers(history) -> dict:
    seat_of = {}
    for played in history:
        for chairs in played.tables:
            seat_of.update({player: seat for seat, player in enumerate(chairs, 1)})
    return seat_of


def kept_seats(chairs, seat_of) -> int:
    return sum(seat_of.get(player) == seat for seat, player in enumerate(chairs, 1))


@pytest.mark.parametrize("present", [NAMES[:7], THIRTEEN])
def test_as_many_as_the_teams_allow_keep_their_seat_number(present):
    """No other seating of each table's teams keeps more players in the seat number they
    last sat in (every seating of the six tried)."""
    history = evening(present, 3)
    proposal = next_round(present, history, "3x2")
    seat_of = last_seat_numbers(history)
    for chairs in proposal.tables:
        same_teams = [order for order in permutations(chairs)
                      if teams_at(order, "3x2") == teams_at(chairs, "3x2")]
        assert kept_seats(chairs, seat_of) == max(
            kept_seats(order, seat_of) for order in same_teams)


# --- over many rounds --------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 25), st.integers(1, 12), st.sampled_from(["3x2", "2x3"]))
def test_while_the_same_players_stay_sit_outs_stay_within_one(count, rounds, layout):
    present = list(range(count))
    history = []
    for _ in range(rounds):
        proposal = next_round(present, history, layout)
        assert len(proposal.tables) == count // 6 and each_placed_once(proposal, present)
        history.append(proposal)
        sat_out = sat_out_so_far(history, present).values()
        assert not sat_out or max(sat_out) - min(sat_out) <= 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sets(st.integers(0, 20)), min_size=1, max_size=8),
       st.sampled_from(["3x2", "2x3"]))
def test_players_coming_and_going_are_each_placed_once(who_is_here, layout):
    """Each round some arrive and some leave: everyone here is at one table or sitting
    out, once; nobody who is not here is placed."""
    history = []
    for here in who_is_here:
        present = sorted(here)
        proposal = next_round(present, history, layout)
        assert each_placed_once(proposal, present)
        assert all(len(chairs) == 6 for chairs in proposal.tables)
        assert proposal == next_round(present, history, layout)
        history.append(proposal)
