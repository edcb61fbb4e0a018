"""Splitting a table's players into teams (four, five or six): every split once, the most
even one by openskill's prediction, seats that move few players, and partners that
rotate through an evening; players into tables of given sizes, every way once.

The expected answers are worked out here by hand or by brute force, and the chances
with openskill itself, never with the module under test.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations, product

import pytest
from openskill.models import PlackettLuce

from scorekeeper.figures.balancing import balance_seats, balances
from scorekeeper.figures.ratings import NEW, Rating
from scorekeeper.figures.teams import (
    BEST, Balance, balance, groups, most_even, next_partners, nothing_to_go_on,
    partner_pairs, read_seats_text, seated, seats_text, split_of, splits, team_sets,
)

SIX = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
FOUR, FIVE = SIX[:4], SIX[:5]
ALL_PAIRS = {frozenset(two) for two in combinations(SIX, 2)}


def every_split_by_brute_force(players, size) -> set[frozenset]:
    """Each way to seat the players, read as teams of ``size`` without order."""
    return {frozenset(frozenset(order[i:i + size]) for i in range(0, len(order), size))
            for order in permutations(players)}


@pytest.mark.parametrize("players, size, ways", [
    (SIX, 2, 15), (SIX, 3, 10), (FOUR, 2, 3), (FOUR, 1, 1), (FIVE, 1, 1), (SIX, 1, 1)])
def test_each_split_is_listed_once(players, size, ways):
    found = splits(players, size)
    assert len(found) == ways
    assert {team_sets(split) for split in found} == every_split_by_brute_force(players, size)
    # 6!/(2!^3 3!), 6!/(3!^2 2!), 4!/(2!^2 2!): two pairs of four are 12-34, 13-24, 14-23
    assert len(every_split_by_brute_force(players, size)) == ways


def every_cut_by_brute_force(players, sizes) -> set[frozenset]:
    """Each way to give every player a group number, kept where the groups have the
    sizes asked, read as groups without order."""
    found = set()
    for numbers in product(range(len(sizes)), repeat=len(players)):
        cut = [frozenset(p for p, n in zip(players, numbers) if n == g)
               for g in range(len(sizes))]
        if [len(group) for group in cut] == list(sizes):
            found.add(frozenset(cut))
    return found


@pytest.mark.parametrize("count, sizes, ways", [
    (8, (4, 4), 35), (9, (5, 4), 126), (10, (6, 4), 210), (10, (5, 5), 126),
    (7, (4, 3), 35), (6, (2, 2, 2), 15)])
def test_players_go_into_groups_of_given_sizes_every_way_once(count, sizes, ways):
    """Tables of a round: C(8,4)/2, C(9,5), C(10,6), C(10,5)/2 ways; equal groups have no
    order among them."""
    players = list(range(count))
    found = groups(players, sizes)
    assert len(found) == ways
    assert all([len(group) for group in cut] == list(sizes) for cut in found)
    assert {team_sets(cut) for cut in found} == every_cut_by_brute_force(players, sizes)


def openskill_chances(teams, ratings) -> list[float]:
    model = PlackettLuce()
    return model.predict_win([[model.rating(mu=ratings[p].mu, sigma=ratings[p].sigma)
                               for p in team] for team in teams])


def test_three_pairs_are_balanced_strong_with_weak():
    """Worked out by hand: with equal sigmas, only strongest & weakest, second &
    fifth, third & fourth give three pairs of the same total (50 each), so three
    teams alike: a third each, the most even there can be."""
    mus = {"Ann": 35, "Bob": 17, "Cid": 27, "Dan": 33, "Eve": 15, "Fay": 23}
    ratings = {name: Rating(mu, 4.0, 5) for name, mu in mus.items()}
    best, *others = most_even(SIX, "3x2", ratings, 3)
    assert team_sets(best.split) == {frozenset({"Ann", "Eve"}), frozenset({"Dan", "Bob"}),
                                     frozenset({"Cid", "Fay"})}
    assert best.chances == pytest.approx([1 / 3] * 3)
    assert best.chances == pytest.approx(openskill_chances(best.split, ratings))
    # The next two are the next most even by the same measure, of all fifteen.
    favourites = sorted(max(openskill_chances(split, ratings)) for split in splits(SIX, 2))
    assert [max(option.chances) for option in others] == pytest.approx(favourites[1:3])
    assert max(others[0].chances) > 1 / 3 + 0.01


def test_two_teams_of_three_are_balanced_on_equal_totals():
    """By hand: 31 + 23 + 21 = 29 + 27 + 19 = 75 is the only split into equal totals."""
    mus = {"Ann": 31, "Bob": 29, "Cid": 27, "Dan": 23, "Eve": 21, "Fay": 19}
    ratings = {name: Rating(mu, 3.0, 8) for name, mu in mus.items()}
    (best,) = most_even(SIX, "2x3", ratings, 1)
    assert team_sets(best.split) == {frozenset({"Ann", "Dan", "Eve"}),
                                     frozenset({"Bob", "Cid", "Fay"})}
    assert best.chances == pytest.approx([0.5, 0.5])
    spreads = sorted(abs(a - b) for a, b in (openskill_chances(split, ratings)
                                             for split in splits(SIX, 3)))
    assert spreads[0] == pytest.approx(0, abs=1e-9) and spreads[1] > 0.01


def test_a_player_without_games_counts_as_new():
    """Five rated players and a newcomer: the newcomer is openskill's new rating."""
    model = PlackettLuce()
    ratings = {name: Rating(20 + 2 * i, 5.0, 3) for i, name in enumerate(SIX[:5])}
    option = balance((("Ann", "Fay"), ("Bob", "Eve"), ("Cid", "Dan")), ratings)
    expected = model.predict_win([
        [model.rating(mu=20, sigma=5), model.rating()],
        [model.rating(mu=22, sigma=5), model.rating(mu=28, sigma=5)],
        [model.rating(mu=24, sigma=5), model.rating(mu=26, sigma=5)]])
    assert option.chances == pytest.approx(expected)


@pytest.mark.parametrize("layout, size, share", [("3x2", 2, 1 / 3), ("2x3", 3, 1 / 2)])
def test_with_no_rated_player_balancing_has_nothing_to_go_on(layout, size, share):
    """No one rated: every split is as even as any other, so the most even would be the
    typed order, said to be a fair split for no reason. One rated game is enough."""
    for unrated in ({}, {name: NEW for name in SIX}):
        assert nothing_to_go_on(unrated)
        assert {round(chance, 9) for option in most_even(SIX, layout, unrated)
                for chance in option.chances} == {round(share, 9)}
    assert not nothing_to_go_on({"Ann": Rating(27.1, 8.3, 1)})
    assert not nothing_to_go_on({"Ann": Rating(27.1, 8.3, 1), "Bob": NEW})


def test_most_even_means_the_smallest_favourite_then_the_largest_underdog():
    """Not the smallest spread: 40/40/20 is more even than 42/30/28 (its favourite is
    less favoured), though its spread is larger."""
    a = Balance((("Ann", "Bob"),), (0.40, 0.40, 0.20))
    b = Balance((("Cid", "Dan"),), (0.42, 0.30, 0.28))
    c = Balance((("Eve", "Fay"),), (0.40, 0.35, 0.25))
    assert sorted([b, a, c], key=lambda option: option.evenness) == [c, a, b]


def test_equally_even_splits_leave_the_players_where_they_sit():
    """All new: every split is as even as any, so balancing moves nobody."""
    seats = ("Fay", "Ann", "Eve", "Bob", "Dan", "Cid")
    (best,) = most_even(sorted(SIX), "3x2", {}, 1, seats)
    assert team_sets(best.split) == team_sets(split_of(seats, "3x2"))
    assert seated(best.split, "3x2", seats) == seats


def test_of_equally_even_splits_the_one_that_moves_fewest_comes_first():
    """Ann & Bob are alike and so are Cid & Dan: swapping either pair's partners changes
    no chance. Balancing takes the even split that moves the fewest players."""
    ratings = {"Ann": Rating(30, 2), "Bob": Rating(30, 2), "Cid": Rating(20, 2),
               "Dan": Rating(20, 2), "Eve": Rating(25, 2), "Fay": Rating(25, 2)}
    seats = ("Ann", "Bob", "Eve", "Dan", "Cid", "Fay")  # Ann & Dan, Bob & Cid, Eve & Fay
    even = [option for option in most_even(SIX, "3x2", ratings)
            if max(option.chances) == pytest.approx(1 / 3)]
    # Ann & Cid or Ann & Dan: the same chances; Ann & Cid is listed first.
    assert [team_sets(option.split) for option in even] == [
        team_sets((("Ann", "Cid"), ("Bob", "Dan"), ("Eve", "Fay"))),
        team_sets(split_of(seats, "3x2"))]
    (best,) = most_even(SIX, "3x2", ratings, 1, chairs=seats)
    assert team_sets(best.split) == team_sets(split_of(seats, "3x2"))


def test_a_split_is_seated_moving_as_few_players_as_can_be():
    seats = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay")  # A: Ann & Dan, B: Bob & Eve, C: Cid & Fay
    # Ann and Cid become partners: Cid and Dan swap chairs, everyone else stays.
    chairs = seated((("Bob", "Eve"), ("Cid", "Ann"), ("Fay", "Dan")), "3x2", seats)
    assert chairs == ("Ann", "Bob", "Dan", "Cid", "Eve", "Fay")
    trios = seated((("Ann", "Bob", "Cid"), ("Dan", "Eve", "Fay")), "2x3", seats)
    assert sum(1 for now, then in zip(trios, seats) if now == then) == 4
    assert team_sets(split_of(trios, "2x3")) == {frozenset(SIX[:3]), frozenset(SIX[3:])}


def test_a_split_of_seats_is_written_and_read_back():
    assert seats_text(((4, 1), (5, 2), (3, 6))) == "14-25-36"
    assert read_seats_text("14-25-36", "3x2") == ((1, 4), (2, 5), (3, 6))
    assert read_seats_text("135-246", "2x3") == ((1, 3, 5), (2, 4, 6))
    for bad in ("", BEST, "14-25", "14-25-33", "135-246", "12-34-57", "1-2-3-4-5-6",
                "14 25 36", "۱۴-۲۵-۳۶"):
        assert read_seats_text(bad, "3x2") is None, bad
    assert read_seats_text("14-25-36", "2x3") is None


def test_a_split_of_four_seats_is_written_and_read_back():
    assert seats_text(((3, 1), (4, 2))) == "13-24"
    assert read_seats_text("13-24", "2x2") == ((1, 3), (2, 4))
    assert read_seats_text("14-23", "2x2") == ((1, 4), (2, 3))
    for bad in ("14-25-36", "13-25", "123-4", "13-24-5", "13-2", "1-2-3-4", "13-13", ""):
        assert read_seats_text(bad, "2x2") is None, bad
    assert read_seats_text("1-2-3-4-5", "c5") == ((1,), (2,), (3,), (4,), (5,))
    assert read_seats_text("1-2-3-4", "c5") is None


def play_evening(first_seats, layout, games):
    """``games`` games in a row, each seated by "Next game, new partners" after the
    first; the partnerships had, counted."""
    partnered: Counter[frozenset] = Counter()
    seats = tuple(first_seats)
    for _ in range(games):
        split = split_of(seats, layout)
        partnered.update(partner_pairs(split))
        seats = seated(next_partners(list(seats), layout, partnered), layout, seats)
    return partnered


@pytest.mark.parametrize("first", splits(SIX, 2))
def test_five_games_of_three_pairs_give_everyone_each_partner_once(first):
    """A round robin (a 1-factorization of K6): whatever the first game's pairs, the
    next four make fifteen partnerships, each two players exactly once."""
    seats = seated(first, "3x2", SIX)
    partnered = play_evening(seats, "3x2", 5)
    assert set(partnered) == ALL_PAIRS
    assert set(partnered.values()) == {1}


def test_a_greedy_third_game_would_leave_no_new_partners():
    """After two games, one choice of new pairs leaves two trios whose players have all
    partnered one another: that one is never taken."""
    partnered = Counter(partner_pairs((("Ann", "Bob"), ("Cid", "Dan"), ("Eve", "Fay")))
                        + partner_pairs((("Bob", "Cid"), ("Dan", "Eve"), ("Fay", "Ann"))))
    # The union is the cycle Ann-Bob-Cid-Dan-Eve-Fay: its "rungs" Ann & Dan, Bob & Eve,
    # Cid & Fay are new, but would leave the triangles Ann-Cid-Eve and Bob-Dan-Fay.
    trap = {frozenset({"Ann", "Dan"}), frozenset({"Bob", "Eve"}), frozenset({"Cid", "Fay"})}
    chosen = next_partners(SIX, "3x2", partnered)
    assert not set(partner_pairs(chosen)) & set(partnered)
    assert set(partner_pairs(chosen)) != trap


def repeats(split, partnered) -> int:
    return sum(partnered[pair] for pair in partner_pairs(split))


@pytest.mark.parametrize("games", [1, 2, 3, 6])
def test_with_two_teams_of_three_partners_repeat_as_little_as_can_be(games):
    """Two trios can't avoid old partners after one game: as few as any split has."""
    seats = tuple(SIX)
    partnered: Counter[frozenset] = Counter()
    for _ in range(games):
        partnered.update(partner_pairs(split_of(seats, "2x3")))
        chosen = next_partners(list(seats), "2x3", partnered)
        assert repeats(chosen, partnered) == min(repeats(split, partnered)
                                                 for split in splits(SIX, 3))
        seats = seated(chosen, "2x3", seats)


def test_three_games_of_two_pairs_give_everyone_each_partner_once():
    """Four players have three ways to pair (12-34, 13-24, 14-23): three games in a row
    pair everyone with each of the other three once, whatever the first."""
    for first in splits(FOUR, 2):
        seats = seated(first, "2x2", FOUR)
        partnered = play_evening(seats, "2x2", 3)
        assert partnered == Counter({frozenset(two): 1 for two in combinations(FOUR, 2)})


@pytest.mark.parametrize("layout, players", [("c4", FOUR), ("c5", FIVE), ("c6", SIX)])
def test_cutthroat_has_no_partners_and_seats_each_alone(layout, players):
    """Each player a team of one: one split, no partner to rotate, whatever was had."""
    partnered = Counter({frozenset(two): 2 for two in combinations(players, 2)})
    chosen = next_partners(players, layout, partnered)
    assert team_sets(chosen) == {frozenset({player}) for player in players}
    assert partner_pairs(chosen) == []
    now = tuple(reversed(players))
    assert seated(chosen, layout, now) == now  # nobody needs to move


def test_a_split_of_four_is_seated_moving_as_few_as_can_be():
    seats = ("Ann", "Bob", "Cid", "Dan")  # A: Ann & Cid, B: Bob & Dan
    chairs = seated((("Ann", "Bob"), ("Cid", "Dan")), "2x2", seats)
    # Ann & Bob partners, opposite: two of the four move (by hand: no seating keeps three).
    assert team_sets(split_of(chairs, "2x2")) == {frozenset({"Ann", "Bob"}),
                                                  frozenset({"Cid", "Dan"})}
    assert sum(1 for now, then in zip(chairs, seats) if now == then) == 2


def test_two_pairs_of_four_are_balanced_and_the_other_two_offered():
    """By hand: 35 + 15 = 33 + 17 = 50 is the one even split of these four; the page
    offers the other two of the three, and balancing leaves a cutthroat table alone."""
    mus = {"Ann": 35, "Bob": 17, "Cid": 33, "Dan": 15}
    names = list(mus)
    rated = {place: Rating(mus[name], 4.0, 5) for place, name in enumerate(names)}
    balanced = balance_seats(names, "2x2", BEST, rated)
    assert {frozenset(names) for _team, names, _chance in balanced.seated.teams} == {
        frozenset({"Ann", "Dan"}), frozenset({"Bob", "Cid"})}
    assert [chance for _team, _names, chance in balanced.seated.teams] == pytest.approx(
        [0.5, 0.5])
    assert balanced.ways == 3 and len(balanced.others) == 2 and balanced.most_even
    assert not balanced.new_players
    assert {option.seats for option in balanced.others} | {balanced.seated.seats} == {
        "12-34", "13-24", "14-23"}
    # Seated so (chairs: who is in each seat), the two pairs sit opposite.
    chairs = balanced.chairs
    assert {frozenset({chairs[0], chairs[2]}), frozenset({chairs[1], chairs[3]})} == {
        frozenset({0, 3}), frozenset({1, 2})}
    asked = balance_seats(names, "2x2", "12-34", rated)
    assert {frozenset(names) for _team, names, _chance in asked.seated.teams} == {
        frozenset({"Ann", "Bob"}), frozenset({"Cid", "Dan"})}
    assert balance_seats(names, "2x2", "14-25-36", rated) is None
    for layout in ("c4", "c5", "c6"):
        assert not balances(layout)
        assert balance_seats(SIX, layout, BEST, {}) is None
    assert balances("2x2") and balances("3x2") and balances("2x3")


def test_new_partners_ignore_those_of_players_gone_home():
    partnered = Counter({frozenset({"Ann", "Gus"}): 3})
    chosen = next_partners(SIX, "3x2", partnered)
    assert repeats(chosen, partnered) == 0
