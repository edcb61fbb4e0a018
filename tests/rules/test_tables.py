"""Tables of four, five and six: each layout's seats and teams, the deal, the bidding,
a hand scored, the end of the game and what each team needs, every number worked out
by hand.

RULES.md, "Tables of four, five and six" (and the sections it keeps for every table).
"""
import pytest

from scorekeeper.rules import (
    PASS,
    TABLE_SIZES,
    Auction,
    Deal,
    HouseRules,
    RuleViolation,
    Tally,
    TeamLayout,
    VerdictKind,
    bidding_order,
    dealer_keeps,
    judge,
    layouts_for,
    left_of,
    quick_auction,
    replay,
    score_hand,
    team_of,
    teams_for,
)
from scorekeeper.rules.auction import reseated
from scorekeeper.rules.needs import Way, team_needs
from scorekeeper.rules.table import check_layout, check_seat

P = PASS


def points(high, low, right, left, joker, game=None, game_values=None):
    """A tally in the order of RULES.md's table: High, Low, Right, Left, Joker, Game."""
    card_points = {"high": high, "low": low, "right": right, "left": left, "joker": joker}
    return Tally(card_points, game, game_values)


# --- seats and teams -----------------------------------------------------------------

def test_the_tables_seat_four_five_or_six():
    assert TABLE_SIZES == (4, 5, 6)


@pytest.mark.parametrize("layout, seats, teams", [
    ("3x2", 6, {"A": (1, 4), "B": (2, 5), "C": (3, 6)}),
    ("2x3", 6, {"A": (1, 3, 5), "B": (2, 4, 6)}),
    ("2x2", 4, {"A": (1, 3), "B": (2, 4)}),
    ("c4", 4, {"A": (1,), "B": (2,), "C": (3,), "D": (4,)}),
    ("c5", 5, {"A": (1,), "B": (2,), "C": (3,), "D": (4,), "E": (5,)}),
    ("c6", 6, {"A": (1,), "B": (2,), "C": (3,), "D": (4,), "E": (5,), "F": (6,)}),
])
def test_each_layout_seats_its_teams(layout, seats, teams):
    assert TeamLayout(layout).seats == seats
    assert teams_for(layout) == teams
    rules = HouseRules(teams=layout)
    assert rules.seats == seats
    assert rules.team_seats == teams
    assert rules.team_names == tuple(teams)


@pytest.mark.parametrize("seat, team", [(1, "A"), (2, "B"), (3, "A"), (4, "B")])
def test_four_in_pairs_partners_sit_opposite(seat, team):
    assert team_of(seat, "2x2") == team


@pytest.mark.parametrize("layout, seat, team", [
    ("c4", 1, "A"), ("c4", 4, "D"),
    ("c5", 3, "C"), ("c5", 5, "E"),
    ("c6", 2, "B"), ("c6", 6, "F"),
])
def test_cutthroat_each_player_is_a_team(layout, seat, team):
    assert team_of(seat, layout) == team


@pytest.mark.parametrize("layout, cutthroat", [
    ("3x2", False), ("2x3", False), ("2x2", False), ("c4", True), ("c5", True), ("c6", True),
])
def test_cutthroat_is_a_team_of_one_each(layout, cutthroat):
    assert TeamLayout(layout).cutthroat is cutthroat


def test_the_layouts_of_each_table_default_first():
    assert layouts_for(4) == (TeamLayout.TWO_PAIRS, TeamLayout.CUTTHROAT_FOUR)
    assert layouts_for(5) == (TeamLayout.CUTTHROAT_FIVE,)
    assert layouts_for(6) == (
        TeamLayout.THREE_PAIRS, TeamLayout.TWO_TRIOS, TeamLayout.CUTTHROAT_SIX)


def test_the_stored_names_of_the_layouts():
    assert [str(layout) for layout in TeamLayout] == ["3x2", "2x3", "2x2", "c4", "c5", "c6"]


@pytest.mark.parametrize("teams", ["4x1", "6x1", "c3", "C4", "2x2 "])
def test_a_layout_no_table_plays_is_refused_naming_those_that_are(teams):
    with pytest.raises(RuleViolation) as caught:
        HouseRules(teams=teams)
    assert caught.value.code == "teams_invalid"
    assert str(caught.value) == f"teams must be 3x2, 2x3, 2x2, c4, c5 or c6, not {teams!r}"


def test_a_layout_may_be_checked_against_some_layouts_only():
    six_in_teams = (TeamLayout.THREE_PAIRS, TeamLayout.TWO_TRIOS)
    assert check_layout("2x3", six_in_teams) is TeamLayout.TWO_TRIOS
    with pytest.raises(RuleViolation) as caught:
        check_layout("2x2", six_in_teams)
    assert str(caught.value) == "teams must be 3x2 or 2x3, not '2x2'"


@pytest.mark.parametrize("layout, seat", [("2x2", 5), ("c4", 6), ("c5", 6), ("c4", 0)])
def test_a_seat_beyond_the_table_has_no_team(layout, seat):
    with pytest.raises(RuleViolation) as caught:
        team_of(seat, layout)
    assert caught.value.code == "seat_invalid"


@pytest.mark.parametrize("seat, seats", [(5, 4), (6, 5), (0, 5), (7, 6)])
def test_a_seat_beyond_the_table_is_refused(seat, seats):
    with pytest.raises(RuleViolation) as caught:
        check_seat(seat, seats)
    assert caught.value.code == "seat_invalid"
    assert str(caught.value) == f"{seat} is not a seat (1-{seats})"


@pytest.mark.parametrize("seats", [0, 3, 7, "4", True, None])
def test_a_table_of_another_size_is_refused(seats):
    with pytest.raises(RuleViolation) as caught:
        left_of(1, seats)
    assert caught.value.code == "table_invalid"


# --- the deal ------------------------------------------------------------------------

@pytest.mark.parametrize("seats, kept", [(4, 29), (5, 23), (6, 17)])
def test_six_cards_each_and_the_dealer_keeps_the_rest(seats, kept):
    # 53 cards: 53 - 4 x 6 = 29, 53 - 5 x 6 = 23, 53 - 6 x 6 = 17
    assert dealer_keeps(seats) == kept


def test_the_dealer_keeps_seventeen_unless_told_the_table():
    assert dealer_keeps() == 17


# --- left of and the bidding order ---------------------------------------------------

@pytest.mark.parametrize("seat, left", [(1, 2), (2, 3), (3, 4), (4, 1)])
def test_left_of_at_four(seat, left):
    assert left_of(seat, 4) == left


@pytest.mark.parametrize("seat, left", [(1, 2), (2, 3), (3, 4), (4, 5), (5, 1)])
def test_left_of_at_five(seat, left):
    assert left_of(seat, 5) == left


def test_left_of_at_six_unless_told():
    assert left_of(6) == 1
    assert left_of(6, 6) == 1
    assert left_of(4) == 5


@pytest.mark.parametrize("dealer, order", [(1, (2, 3, 4, 1)), (3, (4, 1, 2, 3)), (4, (1, 2, 3, 4))])
def test_bidding_order_at_four_from_the_dealers_left_dealer_last(dealer, order):
    assert bidding_order(dealer, 4) == order


@pytest.mark.parametrize("dealer, order", [(2, (3, 4, 5, 1, 2)), (5, (1, 2, 3, 4, 5))])
def test_bidding_order_at_five_from_the_dealers_left_dealer_last(dealer, order):
    assert bidding_order(dealer, 5) == order


def test_bidding_order_at_six_unless_told():
    assert bidding_order(3) == (4, 5, 6, 1, 2, 3)


def test_a_dealer_beyond_the_table_is_refused():
    with pytest.raises(RuleViolation) as caught:
        bidding_order(5, 4)
    assert caught.value.code == "seat_invalid"


# --- the auction ---------------------------------------------------------------------

def test_at_four_the_auction_ends_after_the_dealer():
    # Dealer 2: seats 3, 4, 1, 2 in turn. Seat 3 bids 3, seat 4 passes, seat 1 bids 4,
    # the dealer passes: seat 1 bid 4.
    auction = Auction(2, (3, P, 4), seats=4)
    assert not auction.finished
    assert auction.seat_to_call == 2
    auction = auction.call(P, seat=2)
    assert auction.finished
    assert (auction.bidder_seat, auction.highest_bid) == (1, 4)
    assert auction.turns() == ((3, 3), (4, P), (1, 4), (2, P))
    with pytest.raises(RuleViolation) as caught:
        auction.call(P)
    assert caught.value.code == "auction_over"


def test_at_five_the_dealer_bids_last_and_may_take_it():
    # Dealer 3: seats 4, 5, 1, 2, 3. Seat 5 bids 3, seat 2 bids 4, the dealer bids 5.
    auction = Auction(3, (P, 3, P, 4, 5), seats=5)
    assert auction.finished
    assert (auction.bidder_seat, auction.highest_bid) == (3, 5)


def test_at_five_a_sixth_call_is_refused():
    with pytest.raises(RuleViolation) as caught:
        Auction(3, (P, P, P, P, P, P), seats=5)
    assert caught.value.code == "auction_over"


def test_at_four_a_six_ends_the_auction_at_once():
    # Dealer 4: seat 1 passes, seat 2 bids 6; seats 3 and 4 do not speak.
    auction = Auction(4, (P, 6), seats=4)
    assert auction.finished
    assert (auction.bidder_seat, auction.highest_bid) == (2, 6)


@pytest.mark.parametrize("seats", [4, 5])
def test_everyone_passing_throws_the_cards_in(seats):
    assert Auction(1, (P,) * seats, seats=seats).thrown_in
    assert not Auction(1, (P,) * (seats - 1), seats=seats).finished


def test_a_quick_entry_at_four():
    # Dealer 4: seats 1, 2, 3, 4 in turn; seat 2 bid 5, the others passed.
    auction = quick_auction(4, 2, 5, seats=4)
    assert auction.calls == (P, 5, P, P)
    assert auction.seats == 4


def test_an_auction_at_four_dealt_by_the_next_seat_keeps_its_winner():
    # Dealt by 1: seat 2 bid 3, seat 4 bid 4. Dealt by 2 the turns run 3, 4, 1, 2: seat
    # 4's 4 would come before seat 2's 3, so the hand is kept as its winning bid.
    moved, whole = reseated(Auction(1, (3, P, 4, P), seats=4), 2)
    assert moved == Auction(2, (P, 4, P, P), seats=4)
    assert not whole


def test_a_throw_in_at_five_dealt_by_another_seat_is_five_passes():
    moved, whole = reseated(Auction(1, (P,) * 5, seats=5), 3)
    assert moved == Auction(3, (P,) * 5, seats=5)
    assert whole


# --- throw-ins in a game: the same dealer deals again ---------------------------------

def test_a_throw_in_at_four_keeps_the_dealer():
    # Dealer 4 deals twice (both thrown in), then a played hand: the deal goes to seat 1.
    hand = Deal((P, 3, P, P), "hearts", points("B", "B", "B", "A", "A", "B"))
    state = replay(HouseRules(teams="2x2"), 4, [Deal((P,) * 4), Deal((P,) * 4), hand])
    assert [deal.dealer_seat for deal in state.deals] == [4, 4, 4]
    assert [deal.thrown_in for deal in state.deals] == [True, True, False]
    assert state.deals[2].bidder_seat == 2
    assert state.next_dealer == 1


def test_a_throw_in_at_five_keeps_the_dealer():
    # Dealer 5 throws in; then seat 1 bids 3 and the deal goes left of 5, to seat 1.
    hand = Deal((3, P, P, P, P), "clubs", points("A", "A", "A", "B", "C", "D"))
    state = replay(HouseRules(teams="c5"), 5, [Deal((P,) * 5), hand])
    assert [deal.dealer_seat for deal in state.deals] == [5, 5]
    assert state.deals[0].scores_after == {"A": 0, "B": 0, "C": 0, "D": 0, "E": 0}
    assert state.deals[1].score_change == {"A": 3, "B": 1, "C": 1, "D": 1, "E": 0}
    assert state.next_dealer == 1


@pytest.mark.parametrize("layout, calls, code", [
    ("2x2", (P, P, P), "auction_unfinished"),  # the dealer has not called
    ("2x2", (P,) * 6, "auction_over"),  # six calls at a table of four
    ("c5", (P,) * 6, "auction_over"),
    ("c5", (P,) * 4, "auction_unfinished"),
])
def test_a_game_takes_one_call_a_seat(layout, calls, code):
    with pytest.raises(RuleViolation) as caught:
        replay(HouseRules(teams=layout), 1, [Deal(calls)])
    assert caught.value.code == code
    assert caught.value.number == 1


def test_a_throw_in_at_four_can_not_be_scored():
    with pytest.raises(RuleViolation) as caught:
        replay(HouseRules(teams="2x2"), 1, [Deal((P,) * 4, "spades")])
    assert caught.value.code == "throw_in_scored"
    assert str(caught.value) == "hand 1: all four passed, so there is no trump and no points"


def test_a_first_dealer_beyond_the_table_is_refused():
    with pytest.raises(RuleViolation) as caught:
        replay(HouseRules(teams="c5"), 6, [])
    assert caught.value.code == "seat_invalid"


# --- a hand scored -------------------------------------------------------------------

def test_four_in_pairs_the_worked_example():
    # RULES.md's example: dealer 1; seat 2 (B) bids 3, seat 3 (A) bids 4, seats 4 and 1
    # pass. Spades. A takes High, Right, Left and Game (4), B Low and Joker (2).
    # A made its 4: A +4, B +2.
    hand = Deal((3, 4, P, P), "spades", points("A", "B", "A", "A", "B", "A"))
    state = replay(HouseRules(teams="2x2"), 1, [hand])
    deal = state.deals[0]
    assert (deal.bidder_seat, deal.bid, deal.bidding_team) == (3, 4, "A")
    assert deal.taken == {"A": 4, "B": 2}
    assert deal.made
    assert deal.score_change == {"A": 4, "B": 2}
    assert state.scores == {"A": 4, "B": 2}
    assert state.next_dealer == 2


def test_four_in_pairs_a_set_bidder_loses_its_bid():
    # B bids 5 and takes High, Low, Joker and Game: 4, fewer than 5. B -5, A +2.
    score = score_hand(("A", "B"), "B", 5, points("B", "B", "A", "A", "B", "B"))
    assert score.taken == {"A": 2, "B": 4}
    assert not score.made
    assert score.score_change == {"A": 2, "B": -5}


def test_four_cutthroat_a_set_bidder_loses_its_bid():
    # B bids 3 and takes High only; A Low, C both Bauers, D Joker and Game.
    # B is set: A +1, B -3, C +2, D +2.
    score = score_hand(("A", "B", "C", "D"), "B", 3, points("B", "A", "C", "C", "D", "D"))
    assert score.taken == {"A": 1, "B": 1, "C": 2, "D": 2}
    assert score.score_change == {"A": 1, "B": -3, "C": 2, "D": 2}


def test_four_cutthroat_a_bidder_keeps_more_than_its_bid():
    # D bids 3 and takes High, Low, Right and Joker: 4. D +4, A Left +1, C Game +1.
    score = score_hand(("A", "B", "C", "D"), "D", 3, points("D", "D", "D", "A", "D", "C"))
    assert score.made
    assert score.score_change == {"A": 1, "B": 0, "C": 1, "D": 4}


def test_five_cutthroat_the_worked_example():
    # RULES.md's example: dealer 5; seat 1 passes, seat 2 bids 3, seat 3 passes, seat 4
    # bids 4, the dealer passes. Clubs. D takes High and Right, A Low, B Left, E Joker;
    # C and D count 19 game value each: Game is tied, 5 points out. D took 2 of its 4:
    # set. A +1, B +1, C 0, D -4, E +1.
    values = {"A": 12, "B": 10, "C": 19, "D": 19, "E": 8}
    hand = Deal((P, 3, P, 4, P), "clubs", points("D", "A", "D", "B", "E", game_values=values))
    state = replay(HouseRules(teams="c5"), 5, [hand])
    deal = state.deals[0]
    assert (deal.bidder_seat, deal.bid, deal.bidding_team) == (4, 4, "D")
    assert deal.tally.game is None
    assert deal.taken == {"A": 1, "B": 1, "C": 0, "D": 2, "E": 1}
    assert not deal.made
    assert deal.score_change == {"A": 1, "B": 1, "C": 0, "D": -4, "E": 1}
    assert state.scores == {"A": 1, "B": 1, "C": 0, "D": -4, "E": 1}
    assert state.next_dealer == 1


def test_five_cutthroat_a_made_bid_scores_what_was_taken():
    # E bids 5 and takes High, Low, Right, Left and Game: 5. E +5, C Joker +1.
    score = score_hand(tuple("ABCDE"), "E", 5, points("E", "E", "E", "E", "C", "E"))
    assert score.made
    assert score.score_change == {"A": 0, "B": 0, "C": 1, "D": 0, "E": 5}


def test_six_cutthroat_five_of_six_is_set():
    # F bids 6 and takes every card point, but A takes Game: F took 5 of 6, set.
    # F -6, A +1, the others nothing.
    score = score_hand(tuple("ABCDEF"), "F", 6, points("F", "F", "F", "F", "F", "A"))
    assert score.taken == {"A": 1, "B": 0, "C": 0, "D": 0, "E": 0, "F": 5}
    assert score.score_change == {"A": 1, "B": 0, "C": 0, "D": 0, "E": 0, "F": -6}


def test_six_cutthroat_in_a_game():
    # Dealer 6: seats 1 to 6 in turn; seat 3 (C) bids 3. C takes High, Low and Game,
    # B Right, E Left and Joker. C made 3: C +3, B +1, E +2.
    hand = Deal((P, P, 3, P, P, P), "diamonds", points("C", "C", "B", "E", "E", "C"))
    state = replay(HouseRules(teams="c6"), 6, [hand])
    assert state.scores == {"A": 0, "B": 1, "C": 3, "D": 0, "E": 2, "F": 0}
    assert state.next_dealer == 1


def test_a_point_to_a_team_the_table_does_not_have_is_refused():
    # At four in pairs there is no team C.
    hand = Deal((3, P, P, P), "hearts", points("A", "A", "A", "B", "C", "A"))
    with pytest.raises(RuleViolation) as caught:
        replay(HouseRules(teams="2x2"), 1, [hand])
    assert caught.value.code == "point_not_a_team"


# --- the end of the game -------------------------------------------------------------

def test_cutthroat_one_player_at_the_target_wins():
    verdict = judge(HouseRules(teams="c4"), {"A": 12, "B": 21, "C": 20, "D": 3}, "C", True)
    assert (verdict.kind, verdict.winner) == (VerdictKind.REACHED, "B")


def test_cutthroat_several_at_the_target_the_higher_score_wins():
    scores = {"A": 22, "B": 19, "C": 21, "D": 5, "E": 0}
    verdict = judge(HouseRules(teams="c5"), scores, "C", True)
    assert (verdict.kind, verdict.winner, verdict.score) == (VerdictKind.MORE_POINTS, "A", 22)
    assert verdict.teams == ("A", "C")


def test_cutthroat_a_tie_at_the_top_goes_to_the_bidder():
    scores = {"A": 21, "B": 21, "C": 10, "D": 3}
    verdict = judge(HouseRules(teams="c4"), scores, "B", True)
    assert (verdict.kind, verdict.winner) == (VerdictKind.BIDDER_BREAKS_TIE, "B")
    assert verdict.teams == ("A", "B")


def test_cutthroat_a_tie_without_the_bidder_plays_on():
    # E bid and was set; A and B are tied on 22: nobody has won, another hand is played.
    scores = {"A": 22, "B": 22, "C": 15, "D": 18, "E": 16}
    verdict = judge(HouseRules(teams="c5"), scores, "E", False)
    assert verdict.kind is VerdictKind.TIE_PLAY_ON
    assert verdict.winner is None
    assert verdict.teams == ("A", "B")
    assert verdict.score == 22


def test_six_cutthroat_three_tied_without_the_bidder_play_on():
    scores = {"A": 21, "B": 4, "C": 21, "D": 17, "E": 0, "F": 21}
    verdict = judge(HouseRules(teams="c6"), scores, "D", False)
    assert verdict.kind is VerdictKind.TIE_PLAY_ON
    assert verdict.teams == ("A", "C", "F")


def test_four_in_pairs_a_tie_is_always_the_bidders():
    # Two teams: a tie at the top holds both, the bidding team among them.
    verdict = judge(HouseRules(teams="2x2"), {"A": 21, "B": 21}, "A", False)
    assert (verdict.kind, verdict.winner) == (VerdictKind.BIDDER_BREAKS_TIE, "A")


def test_cutthroat_bidder_goes_out():
    # The house rule: D made its bid and reached 21; A has more, but D goes out.
    rules = HouseRules(teams="c4", bidder_goes_out=True)
    verdict = judge(rules, {"A": 24, "B": 0, "C": 2, "D": 21}, "D", True)
    assert (verdict.kind, verdict.winner) == (VerdictKind.BIDDER_GOES_OUT, "D")


def test_four_cutthroat_a_game_played_on_after_a_tie_then_won():
    # Target 5, dealer 1.
    # Hand 1, dealer 1 (turns 2, 3, 4, 1): B bids 3; A takes High, Low, Right, C Left,
    #   Joker, Game. B took 0: set. A 3, B -3, C 3, D 0.
    # Hand 2, dealer 2 (turns 3, 4, 1, 2): D bids 3; A Low, Right, C High, Left, D Joker,
    #   Game tied. D took 1: set. A 5, B -3, C 5, D -3: A and C tied on 5 without the
    #   bidder: play on.
    # Hand 3, dealer 3 (turns 4, 1, 2, 3): the dealer C bids 4; C takes High, Low, Right,
    #   Left, A Joker and Game. C made 4: C 9, A 7. C has more: C wins.
    deals = [
        Deal((3, P, P, P), "hearts", points("A", "A", "A", "C", "C", "C")),
        Deal((P, 3, P, P), "spades", points("C", "A", "A", "C", "D", None)),
        Deal((P, P, P, 4), "clubs", points("C", "C", "C", "C", "A", "A")),
    ]
    rules = HouseRules(teams="c4", target=5)
    state = replay(rules, 1, deals)
    assert [deal.dealer_seat for deal in state.deals] == [1, 2, 3]
    assert [deal.scores_after for deal in state.deals] == [
        {"A": 3, "B": -3, "C": 3, "D": 0},
        {"A": 5, "B": -3, "C": 5, "D": -3},
        {"A": 7, "B": -3, "C": 9, "D": -3},
    ]
    assert state.deals[1].verdict.kind is VerdictKind.TIE_PLAY_ON
    assert state.deals[1].verdict.teams == ("A", "C")
    assert (state.verdict.kind, state.winner) == (VerdictKind.MORE_POINTS, "C")
    with pytest.raises(RuleViolation) as caught:
        replay(rules, 1, [*deals, Deal((P,) * 4)])
    assert (caught.value.code, caught.value.number) == ("game_over", 4)


# --- what each team needs ------------------------------------------------------------

def needs_of(scores, **rules):
    return {need.team: need for need in team_needs(HouseRules(**rules), scores)}


def test_needs_four_in_pairs():
    # A 18, B 20, target 21.
    # A bidding: 3 gives 21 against B's 23 at most; 4 gives 22, B 22 at most: a tie that
    #   goes to A as the bidder. A without the bid: 4 (22) leaves B 2, short of any bid,
    #   so B is set; 3 (21) loses to B making 3 (23).
    # B bidding: 3 gives 23 against A's 21 at most. B without the bid: 3 (23) against
    #   A's 21 at most; 2 (22) ties with A making 4 (22), A's as the bidder.
    needs = needs_of({"A": 18, "B": 20}, teams="2x2")
    assert (needs["A"].short, needs["B"].short) == (3, 1)
    assert needs["A"].bidding == Way(4, tie_break=True)
    assert needs["A"].not_bidding == Way(4)
    assert needs["B"].bidding == Way(3)
    assert needs["B"].not_bidding == Way(3)


def test_needs_four_cutthroat():
    # A, B and C on 20, D on 0, target 21.
    # A bidding 3: 23, and B may take the other 3 to tie on 23, A's as the bidder.
    # A without the bid: 3 (23) loses to B bidding and making 3 (23, B's tie); 4 (24)
    #   leaves the others 2 at most: 22. D, 21 short, is out of reach.
    needs = needs_of({"A": 20, "B": 20, "C": 20, "D": 0}, teams="c4")
    assert needs["A"].bidding == Way(3, tie_break=True)
    assert needs["A"].not_bidding == Way(4)
    assert not needs["D"].can_go_out


def test_needs_five_cutthroat():
    # A 19, B 15, C 20, D 10, E 10, target 21.
    # C: bidding 3 gives 23, A 22 at most; without the bid 3 as well (2 gives 22, and A
    #   may take 4: 23).
    # A: 3 gives 22 and C may take 3: 23; 4 gives 23 against C's 22 at most. Either way.
    # B: only all six, 21, against A's 19 and C's 20 (or less, set): either way.
    # D and E, 11 short, are out of reach.
    needs = needs_of({"A": 19, "B": 15, "C": 20, "D": 10, "E": 10}, teams="c5")
    assert needs["C"].bidding == Way(3)
    assert needs["C"].not_bidding == Way(3)
    assert needs["A"].bidding == Way(4)
    assert needs["A"].not_bidding == Way(4)
    assert needs["B"].bidding == Way(6)
    assert needs["B"].not_bidding == Way(6)
    assert not needs["D"].can_go_out and not needs["E"].can_go_out
    assert needs["D"].short == 11


def test_needs_six_cutthroat_after_a_tie_played_on():
    # A and B tied on 22 past 21 (the bidder was set): C on 17 goes out only with all six
    # (23), whoever bids; A bidding 3 (25) leaves B 3 at most (25): A's as the bidder.
    scores = {"A": 22, "B": 22, "C": 17, "D": 0, "E": 0, "F": 0}
    needs = needs_of(scores, teams="c6")
    assert needs["C"].bidding == Way(6)
    assert needs["C"].not_bidding == Way(6)
    assert needs["A"].bidding == Way(3, tie_break=True)
