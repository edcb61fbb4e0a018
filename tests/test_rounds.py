"""The next round of an evening of several tables: tables of four to six with nobody left
out (but at seven), as the club prefers them; sit-outs in turn, tables that mix, partners
that rotate, each table's layout, late arrivals and leavers.

The expected answers are worked out here by hand, or by trying every way in plain loops
(the teams read off the seats as RULES.md gives them), never with the module's helpers.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise, permutations, product

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from scorekeeper.figures.rounds import (
    Round, next_round, round_wanted, sit_outs_ahead, table_sizes,
)

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim",
         "Lou", "Mia", "Ned", "Oda", "Pia", "Quy", "Rex"]
TWELVE, FOURTEEN = NAMES[:12], NAMES[:14]
# The seats of each team (RULES.md, "Table" and "Tables of four, five and six"):
# partners never sit side by side; cutthroat, each seat is a team.
TEAM_SEATS = {"3x2": [(1, 4), (2, 5), (3, 6)], "2x3": [(1, 3, 5), (2, 4, 6)],
              "2x2": [(1, 3), (2, 4)], "c4": [(1,), (2,), (3,), (4,)],
              "c5": [(1,), (2,), (3,), (4,), (5,)],
              "c6": [(1,), (2,), (3,), (4,), (5,), (6,)]}
SEATED = {layout: sum(len(team) for team in teams) for layout, teams in TEAM_SEATS.items()}


def evening(present, rounds, played=(), history=(), sixes=False):
    """``rounds`` rounds played as proposed, each added to the evening's history."""
    history = list(history)
    for _ in range(rounds):
        history.append(next_round(present, history, played, sixes))
    return history


def teams_at(chairs, layout):
    """The teams of a table seated so (chairs seat by seat), each as a set."""
    return {frozenset(chairs[seat - 1] for seat in seats) for seats in TEAM_SEATS[layout]}


def partners_so_far(history) -> Counter:
    """Each two players -> the games they were partners in, counted table by table."""
    count = Counter()
    for played in history:
        for chairs, layout in zip(played.tables, played.layouts):
            for team in teams_at(chairs, layout):
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


def same_table_again(before, after) -> bool:
    """Whether a table of ``after`` is one of ``before``'s, the same players."""
    return bool({frozenset(t) for t in before.tables} & {frozenset(t) for t in after.tables})


def each_placed_once(proposal, present) -> bool:
    placed = [player for chairs in proposal.tables for player in chairs]
    placed += list(proposal.sitting_out)
    return sorted(placed, key=str) == sorted(present, key=str)


def sizes_by_hand(count, sixes):
    """Every way to make tables of 4, 5 and 6 of ``count`` players, the most that can
    be seated: then the fewest tables, as even as can be; or, preferring sixes, the
    most sixes, then the fewest tables, as even as can be. Largest first."""
    for seated in range(count, -1, -1):
        ways = [tuple(sorted([6] * six + [5] * five + [4] * four, reverse=True))
                for six, five, four in product(range(seated // 4 + 1), repeat=3)
                if 6 * six + 5 * five + 4 * four == seated]
        if ways:
            return min(ways, key=lambda way: (-way.count(6) if sixes else 0, len(way),
                                              max(way, default=0) - min(way, default=0)))


# --- how many tables, of what size, and who sits out --------------------------------


@pytest.mark.parametrize("present", [[], NAMES[:1], NAMES[:3]])
def test_fewer_than_four_make_no_table_and_everyone_waits(present):
    for sixes in (False, True):
        assert next_round(present, [], "3x2", sixes) == Round((), tuple(present), ())


@pytest.mark.parametrize("count, fewest, sixes_first", [
    # Worked out by hand: the fewest tables, as even as can be; or as many sixes as fit.
    (4, (4,), (4,)), (5, (5,), (5,)), (6, (6,), (6,)), (7, (6,), (6,)),
    (8, (4, 4), (4, 4)), (9, (5, 4), (5, 4)), (10, (5, 5), (6, 4)), (11, (6, 5), (6, 5)),
    (12, (6, 6), (6, 6)), (13, (5, 4, 4), (5, 4, 4)), (14, (5, 5, 4), (6, 4, 4)),
    (15, (5, 5, 5), (6, 5, 4)), (19, (5, 5, 5, 4), (6, 5, 4, 4)),
    (20, (5, 5, 5, 5), (6, 6, 4, 4))])
def test_the_tables_are_as_the_club_prefers(count, fewest, sixes_first):
    assert table_sizes(count) == fewest and table_sizes(count, sixes=True) == sixes_first
    for sixes, sizes in ((False, fewest), (True, sixes_first)):
        proposal = next_round(NAMES[:count] + [f"P{n}" for n in range(count - 18)], [],
                              (), sixes)
        assert tuple(len(chairs) for chairs in proposal.tables) == sizes


@pytest.mark.parametrize("count", range(0, 41))
def test_every_count_is_seated_as_every_way_tried_says(count):
    for sixes in (False, True):
        assert table_sizes(count, sixes) == sizes_by_hand(count, sixes), (count, sixes)


def test_nine_make_a_table_of_five_for_themselves_and_two_pairs_of_four():
    """By hand: nothing played, every cut costs nothing, so the first five come to the
    first table (cutthroat, seat by seat as they came) and the other four are two pairs,
    the first two of them partners (Fay & Gus in seats 1 and 3)."""
    for sixes in (False, True):
        (proposal,) = evening(NAMES[:9], 1, sixes=sixes)
        assert proposal == Round((("Ann", "Bob", "Cid", "Dan", "Eve"),
                                  ("Fay", "Hal", "Gus", "Ivy")), (), ("c5", "2x2"))


def test_ten_make_two_fives_or_a_six_and_a_four():
    fives, = evening(NAMES[:10], 1)
    assert fives == Round((tuple(NAMES[:5]), tuple(NAMES[5:10])), (), ("c5", "c5"))
    six_and_four, = evening(NAMES[:10], 1, sixes=True)
    # Three pairs, seats 1 & 4, 2 & 5, 3 & 6: the first six as they came.
    assert six_and_four.layouts == ("3x2", "2x2")
    assert set(six_and_four.tables[0]) == set(NAMES[:6])
    assert set(six_and_four.tables[1]) == set(NAMES[6:10])


def test_fourteen_make_three_tables_of_either_kind_and_nobody_sits_out():
    for sixes, sizes, layouts in ((False, (5, 5, 4), ("c5", "c5", "2x2")),
                                  (True, (6, 4, 4), ("3x2", "2x2", "2x2"))):
        history = evening(FOURTEEN, 4, sixes=sixes)
        for played in history:
            assert tuple(map(len, played.tables)) == sizes and played.layouts == layouts
            assert played.sitting_out == () and each_placed_once(played, FOURTEEN)
        for before, after in pairwise(history):
            assert not same_table_again(before, after)


def test_seven_players_sit_out_in_turn():
    """Round 1: nobody has sat out or played, so the last listed sits out (the first
    come are the first seated). Round 2: the six who played have played more than the
    one who sat out: the last of them. And so on."""
    for sixes in (False, True):
        history = evening(NAMES[:7], 8, sixes=sixes)
        last_first = NAMES[:7][::-1]
        assert [played.sitting_out for played in history] == [
            (name,) for name in last_first + last_first[:1]]
        for played in history:
            assert set(played.tables[0]) == set(NAMES[:7]) - set(played.sitting_out)


def test_the_turns_ahead_are_those_the_rounds_take():
    history = evening(NAMES[:6], 2)
    ahead = sit_outs_ahead(NAMES[:7], history, 8)
    assert ahead == [played.sitting_out for played in evening(NAMES[:7], 8, history=history)
                     [len(history):]]
    assert sit_outs_ahead(NAMES[:8], history, 3) == [(), (), ()]
    assert sit_outs_ahead(NAMES[:3], [], 2) == [tuple(NAMES[:3])] * 2


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


def test_cutthroat_tables_mix_their_players_too():
    """Ten in two fives, each for themselves: round 2 takes two or three of each table
    of round 1 to each table (C(2,2) + C(3,2) = 4 rounds shared, the least)."""
    first, second = evening(NAMES[:10], 2)
    assert second.layouts == ("c5", "c5")
    for table in second.tables:
        assert sorted(len(set(table) & set(old)) for old in first.tables) == [2, 3]


def test_an_arrival_at_six_sits_out_only_once_the_six_have():
    """Gus comes after two rounds of six: seven now, one sits out a round. All have sat
    out no round, but the six have played more: they sit out first, in turn, and Gus
    only once they all have."""
    history = evening(NAMES[:7], 7, history=evening(NAMES[:6], 2))
    assert [played.sitting_out for played in history[2:]] == [
        (name,) for name in NAMES[:6][::-1] + ["Gus"]]


def test_an_arrival_at_seven_seats_everyone_again():
    history = evening(NAMES[:7], 2)
    proposal = next_round(NAMES[:8], history)
    assert proposal.sitting_out == () and len(proposal.tables) == 2
    assert each_placed_once(proposal, NAMES[:8])


def test_a_player_who_left_is_not_seated():
    history = evening(FOURTEEN, 3)
    stayed = [name for name in FOURTEEN if name != "Cid"]
    proposal = next_round(stayed, history)
    assert proposal.sitting_out == () and each_placed_once(proposal, stayed)
    assert tuple(map(len, proposal.tables)) == (5, 4, 4)


def test_the_same_evening_gives_the_same_proposal():
    history = evening(FOURTEEN, 4, "2x3", sixes=True)
    assert next_round(list(FOURTEEN), list(history), "2x3", True) == next_round(
        FOURTEEN, history, "2x3", True)


def test_a_player_present_twice_is_refused():
    with pytest.raises(ValueError):
        next_round(["Ann", *NAMES[:6]], [], "3x2")


def test_a_round_of_sixes_with_one_layout_still_reads():
    """The rounds of evenings before tables of four and five: one layout for all."""
    old = Round((tuple(NAMES[:6]), tuple(NAMES[6:12])), ("Mia",), "2x3")
    assert old.layouts == ("2x3", "2x3")
    assert Round((tuple(NAMES[:4]),), (), "2x2").layouts == ("2x2",)
    for wrong in ("3x2", ("2x2", "2x2"), ("2x2",)):
        with pytest.raises(ValueError):
            Round((tuple(NAMES[:6]), tuple(NAMES[6:11])), (), wrong)


# --- each table's layout ------------------------------------------------------------


def test_each_table_plays_the_layout_last_played_at_its_size_tonight():
    """Sixes keep the evening's last six-table layout, fours the last four-table one,
    fives play cutthroat; nothing played at a size yet: three pairs, two pairs."""
    assert evening(NAMES[:16], 1, sixes=True)[0].layouts == ("3x2", "3x2", "2x2")
    assert evening(NAMES[:16], 1, ["2x3", "c4", "3x2"], sixes=True)[0].layouts == (
        "3x2", "3x2", "c4")
    assert evening(NAMES[:16], 1, ["c6", "2x2"], sixes=True)[0].layouts == (
        "c6", "c6", "2x2")
    assert evening(NAMES[:15], 1, "2x3")[0].layouts == ("c5", "c5", "c5")
    for played in evening(NAMES[:15], 1, "2x3", sixes=True):
        assert played.layouts == ("2x3", "c5", "2x2")


def test_a_round_is_wanted_from_four_here_unless_they_just_played_together():
    assert not round_wanted(NAMES[:3])
    assert round_wanted(NAMES[:4]) and round_wanted(NAMES[:5])
    assert not round_wanted(NAMES[:4], NAMES[:4][::-1])  # they play on, new partners
    assert round_wanted(NAMES[:5], NAMES[:4]) and round_wanted(NAMES[:5], NAMES[:6])


# --- tables that mix ----------------------------------------------------------------


def cheapest_cut(playing, sizes, history) -> int:
    """Every way to cut the players into two tables of ``sizes``."""
    return min(cost_of([table, [p for p in playing if p not in table]], history)
               for table in combinations(playing, sizes[0]))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(12, False), (10, False), (10, True), (9, False), (11, False)]),
       st.lists(st.permutations(range(12)), min_size=1, max_size=6), st.randoms())
def test_two_tables_are_the_cheapest_cut_of_all(count_sixes, shuffles, random):
    """Rounds seated any way, then the proposal: no cut into its tables shares fewer."""
    count, sixes = count_sixes
    history = [Round((tuple(order[:6]), tuple(order[6:])), (), "3x2")
               for order in shuffles]
    present = random.sample(range(12), count)
    proposal = next_round(present, history, (), sixes)
    sizes = tuple(map(len, proposal.tables))
    assert sizes == table_sizes(count, sixes)
    assert cost_of(proposal.tables, history) == cheapest_cut(present, sizes, history)


@pytest.mark.parametrize("count, sixes", [(18, False), (14, False), (14, True), (22, True)])
def test_three_tables_mix_and_no_exchange_of_two_players_would_mix_them_more(count, sixes):
    present = NAMES + [f"P{n}" for n in range(count - len(NAMES))]
    history = evening(present[:count], 4, sixes=sixes)
    for before, after in pairwise(history):
        assert not same_table_again(before, after)
    proposal = next_round(present[:count], history, (), sixes)
    tables = [list(table) for table in proposal.tables]
    cost = cost_of(tables, history)
    for one, other in combinations(range(len(tables)), 2):
        for here, there in product(range(len(tables[one])), range(len(tables[other]))):
            swapped = [list(table) for table in tables]
            swapped[one][here], swapped[other][there] = tables[other][there], tables[one][here]
            assert cost_of(swapped, history) >= cost


# --- partners and seats -------------------------------------------------------------


def every_split_of(chairs, layout):
    """Every split of a table's players into the layout's teams, from every seating."""
    return {frozenset(teams_at(order, layout)) for order in permutations(chairs)}


def repeats(teams, partnered) -> int:
    return sum(partnered[frozenset(two)] for team in teams for two in combinations(team, 2))


@pytest.mark.parametrize("played", ["3x2", "2x3"])
@pytest.mark.parametrize("count", [6, 7, 8, 9, 10, 12, 14])
def test_each_table_seats_the_partners_who_partnered_least(played, count):
    """The teams read off each table's seats repeat as few partnerships as any split of
    its players could (every split tried), whatever its size."""
    history = []
    for _ in range(4):
        proposal = next_round(NAMES[:count], history, played, True)
        partnered = partners_so_far(history)
        for chairs, layout in zip(proposal.tables, proposal.layouts):
            assert len(chairs) == SEATED[layout]
            teams = teams_at(chairs, layout)
            assert repeats(teams, partnered) == min(
                repeats(split, partnered) for split in every_split_of(chairs, layout))
        history.append(proposal)


@pytest.mark.parametrize("present, rounds, layout", [
    (NAMES[:6], 5, "3x2"), (NAMES[:4], 3, "2x2")])
def test_a_table_in_pairs_has_each_other_player_as_partner_once_in_a_round_robin(
        present, rounds, layout):
    """Six in three pairs: five rounds; four in two pairs: three rounds."""
    history = evening(present, rounds)
    assert all(played.layouts == (layout,) for played in history)
    assert partners_so_far(history) == Counter(
        {frozenset(two): 1 for two in combinations(present, 2)})


def last_seat_numbers(history) -> dict:
    seat_of = {}
    for played in history:
        for chairs in played.tables:
            seat_of.update({player: seat for seat, player in enumerate(chairs, 1)})
    return seat_of


def kept_seats(chairs, seat_of) -> int:
    return sum(seat_of.get(player) == seat for seat, player in enumerate(chairs, 1))


@pytest.mark.parametrize("present", [NAMES[:7], NAMES[:9], FOURTEEN])
def test_as_many_as_the_teams_allow_keep_their_seat_number(present):
    """No other seating of each table's teams keeps more players in the seat number they
    last sat in (every seating of the table tried)."""
    history = evening(present, 3)
    proposal = next_round(present, history)
    seat_of = last_seat_numbers(history)
    for chairs, layout in zip(proposal.tables, proposal.layouts):
        same_teams = [order for order in permutations(chairs)
                      if teams_at(order, layout) == teams_at(chairs, layout)]
        assert kept_seats(chairs, seat_of) == max(
            kept_seats(order, seat_of) for order in same_teams)


# --- over many rounds ---------------------------------------------------------------


def check_proposal(proposal, present, history, played, sixes):
    """What every proposal holds: everyone once; nobody out but at seven or under four;
    each table the size its layout seats, tables of four to six as the club prefers;
    the same again when asked again."""
    count = len(present)
    assert each_placed_once(proposal, present)
    out = len(proposal.sitting_out)
    assert out == (count if count < 4 else 1 if count == 7 else 0)
    assert tuple(map(len, proposal.tables)) == sizes_by_hand(count, sixes)
    assert [len(chairs) for chairs in proposal.tables] == [
        SEATED[layout] for layout in proposal.layouts]
    assert proposal == next_round(list(present), list(history), played, sixes)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 30), st.integers(1, 6), st.booleans(),
       st.lists(st.sampled_from(["3x2", "2x3", "c6", "2x2", "c4", "c5"]), max_size=3))
def test_while_the_same_players_stay_sit_outs_stay_within_one(count, rounds, sixes, played):
    present = list(range(count))
    history = []
    for _ in range(rounds):
        proposal = next_round(present, history, played, sixes)
        check_proposal(proposal, present, history, played, sixes)
        history.append(proposal)
        sat_out = sat_out_so_far(history, present).values()
        assert not sat_out or max(sat_out) - min(sat_out) <= 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sets(st.integers(0, 30)), min_size=1, max_size=6), st.booleans())
def test_players_coming_and_going_are_each_placed_once(who_is_here, sixes):
    """Each round some arrive and some leave: everyone here is at one table or sitting
    out, once; nobody who is not here is placed."""
    history = []
    for here in who_is_here:
        present = sorted(here)
        proposal = next_round(present, history, (), sixes)
        check_proposal(proposal, present, history, (), sixes)
        history.append(proposal)


@pytest.mark.parametrize("count", range(4, 31))
def test_every_count_from_four_to_thirty_through_three_rounds(count):
    """Nobody sits out but at seven, and there in turn; each table the size its layout
    seats; the tables of a round never all alike the round before (they mix)."""
    present = [f"P{n:02}" for n in range(count)]
    for sixes in (False, True):
        history = []
        for _ in range(3):
            proposal = next_round(present, history, (), sixes)
            check_proposal(proposal, present, history, (), sixes)
            history.append(proposal)
        if len(history[0].tables) > 1:
            for before, after in pairwise(history):
                assert {frozenset(t) for t in before.tables} != {
                    frozenset(t) for t in after.tables}
        if count == 7:
            assert len({played.sitting_out for played in history}) == 3
