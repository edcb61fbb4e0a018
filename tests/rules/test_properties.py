"""Property tests: random legal games must follow RULES.md, random illegal changes to
them must be refused with the right code and hand number.

The strategies build games the way a table plays them, at every table layout (six, five
or four seats; pairs, threes or cutthroat): each auction is a random walk through
``Auction.legal_calls()``, trump is any suit, and every point goes to a random team of
the game. ``expected_game`` is an independent reading of RULES.md that the
engine's replay is compared with.
"""
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    PASS,
    SEATS,
    SUITS,
    Auction,
    Deal,
    HandRejected,
    HouseRules,
    RuleViolation,
    Tally,
    VerdictKind,
    judge,
    carry_on,
    quick_auction,
    replay,
)
from scorekeeper.rules.auction import reseated

CARD_POINT_NAMES = ("high", "low", "right", "left", "joker")
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
QUICK = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- the rules, read independently ---------------------------------------------------

LAYOUTS = ("3x2", "2x3", "2x2", "c4", "c5", "c6")
TABLE = {"3x2": 6, "2x3": 6, "2x2": 4, "c4": 4, "c5": 5, "c6": 6}  # seats at the table


def teams_of(layout):
    if layout == "3x2":
        return ("A", "B", "C")
    if layout in ("2x3", "2x2"):
        return ("A", "B")
    return tuple("ABCDEF"[: TABLE[layout]])  # cutthroat: a team a seat


def seat_team(seat, layout):
    # 3x2: A = 1 & 4, B = 2 & 5, C = 3 & 6;  2x3: A = 1, 3, 5, B = 2, 4, 6;
    # 2x2: A = 1 & 3, B = 2 & 4;  cutthroat: A = 1, B = 2 ...
    if layout == "3x2":
        return "ABC"[(seat - 1) % 3]
    if layout in ("2x3", "2x2"):
        return "AB"[(seat - 1) % 2]
    return "ABCDEF"[seat - 1]


def seat_left_of(seat, times=1, seats=6):
    return (seat - 1 + times) % seats + 1


def strangers(teams):
    """Names that are not a team of a game with these teams."""
    return [*(letter for letter in "ABCDEFG" if letter not in teams), "", "AB"]


def game_winner(tally, teams):
    """Who takes Game: the given team, or the only team with the most game value."""
    if tally.game_values is None:
        return tally.game
    values = [tally.game_values.get(team, 0) for team in teams]
    top = max(values)
    return teams[values.index(top)] if values.count(top) == 1 else None


def expected_game(rules, first_dealer, deals):
    """What RULES.md says about these deals, and how many are played before the end."""
    layout = rules.teams.value
    teams, seats = teams_of(layout), TABLE[layout]
    scores = {team: 0 for team in teams}
    dealer = first_dealer
    hands = []
    winner = None
    for deal in deals:
        if winner is not None:
            break  # everything from here on must be refused
        order = [seat_left_of(dealer, k, seats) for k in range(1, seats + 1)]
        bids = [(order[k], call) for k, call in enumerate(deal.calls) if call != PASS]
        if not bids:
            hands.append({"dealer": dealer, "thrown_in": True, "scores": dict(scores)})
            continue
        bidder, bid = max(bids, key=lambda seat_bid: int(seat_bid[1]))
        bid = int(bid)
        bidding_team = seat_team(bidder, layout)
        taken = {team: 0 for team in teams}
        for team in deal.tally.card_points.values():
            taken[team] += 1
        game = game_winner(deal.tally, teams)
        if game is not None:
            taken[game] += 1
        made = taken[bidding_team] >= bid
        change = dict(taken)
        if not made:
            change[bidding_team] = -bid
        scores = {team: scores[team] + change[team] for team in teams}
        winner = end_of_game(rules, scores, bidding_team, made)
        hands.append({
            "dealer": dealer, "thrown_in": False, "bidder": bidder, "bid": bid,
            "bidding_team": bidding_team, "taken": taken, "made": made, "change": change,
            "scores": dict(scores), "winner": winner, "game": game,
        })
        dealer = seat_left_of(dealer, 1, seats)
    return hands, winner


def end_of_game(rules, scores, bidding_team, made):
    target = rules.target
    if rules.bidder_goes_out and made and scores[bidding_team] >= target:
        return bidding_team
    reached = [team for team in scores if scores[team] >= target]
    if not reached:
        return None
    top = max(scores[team] for team in reached)
    leaders = [team for team in reached if scores[team] == top]
    if len(leaders) == 1:
        return leaders[0]
    return bidding_team if bidding_team in leaders else None


# --- strategies ----------------------------------------------------------------------

ANY_TARGET = st.one_of(st.integers(1, 9), st.sampled_from([11, 15, 21, 31]))
LOW_TARGET = st.integers(1, 6)  # games that mostly end within a few hands


def house_rules(targets=ANY_TARGET):
    return st.builds(
        HouseRules,
        teams=st.sampled_from(LAYOUTS),
        target=targets,
        bidder_goes_out=st.booleans(),
    )


@st.composite
def auctions(draw, dealer=None, seats=None):
    """A finished auction at a table of ``seats`` (any, if not given): every call drawn
    from the calls that are legal at that turn."""
    if seats is None:
        seats = draw(st.sampled_from([4, 5, 6]))
    if dealer is None:
        dealer = draw(st.integers(1, seats))
    auction = Auction(dealer, seats=seats)
    while not auction.finished:
        legal = auction.legal_calls()
        # pass and the lowest bid more often than a flat draw would, so that throw-ins
        # and low bids turn up as well as sixes
        call = draw(st.sampled_from([PASS, PASS, PASS, legal[1], *legal]))
        auction = auction.call(call, seat=auction.seat_to_call)
    return auction


@st.composite
def unfinished_auctions(draw):
    seats = draw(st.sampled_from([4, 5, 6]))
    auction = Auction(draw(st.integers(1, seats)), seats=seats)
    for _ in range(draw(st.integers(0, seats - 1))):
        legal = [call for call in auction.legal_calls() if call != 6]
        auction = auction.call(draw(st.sampled_from(legal)))
    return auction


@st.composite
def game_values(draw, teams):
    """Game values per team, never more than 81 together; ties at the top turn up often."""
    most = 81 // len(teams)
    round_values = [v for v in (0, 10, 20) if v <= most]
    value = st.one_of(st.integers(0, most), st.sampled_from([*round_values, most]))
    values = {team: draw(value) for team in teams}
    left_out = draw(st.sets(st.sampled_from(teams), max_size=1))  # a team left out counts 0
    return {team: v for team, v in values.items() if team not in left_out}


@st.composite
def tallies(draw, teams, bidding_team=None):
    """Every card point to one of the teams; the bidding team, if named, gets more of them
    so that bids are made about as often as they are set."""
    owner = st.sampled_from(teams if bidding_team is None else (*teams, *[bidding_team] * 3))
    card_points = {name: draw(owner) for name in CARD_POINT_NAMES}
    how = draw(st.sampled_from(["team", "tied", "values"]))
    if how == "team":
        return Tally(card_points, game=draw(owner))
    if how == "tied":
        return Tally(card_points, game=None)
    return Tally(card_points, game_values=draw(game_values(teams)))


@st.composite
def games(draw, max_deals=14, targets=ANY_TARGET):
    """(rules, first dealer, deals): legal deals, possibly going on past the game's end."""
    rules = draw(house_rules(targets))
    teams, seats = teams_of(rules.teams.value), TABLE[rules.teams.value]
    first_dealer = draw(st.integers(1, seats))
    dealer = first_dealer
    deals = []
    for _ in range(draw(st.integers(0, max_deals))):
        if draw(st.integers(0, 7)) == 0:
            auction = Auction(dealer, (PASS,) * seats, seats)
        else:
            auction = draw(auctions(dealer, seats))
        if auction.thrown_in:
            deals.append(Deal(auction.calls))
            continue
        trump = draw(st.sampled_from([*SUITS, *(suit.value for suit in SUITS)]))
        bidding_team = seat_team(auction.bidder_seat, rules.teams.value)
        deals.append(Deal(auction.calls, trump, draw(tallies(teams, bidding_team))))
        dealer = seat_left_of(dealer, 1, seats)
    return rules, first_dealer, deals


@st.composite
def legal_games(draw):
    """A game cut at its end (if it ends): every deal in it must be accepted."""
    rules, first_dealer, deals = draw(games())
    hands, _ = expected_game(rules, first_dealer, deals)
    return rules, first_dealer, deals[: len(hands)]


# --- auctions ------------------------------------------------------------------------

@FAST
@given(auctions())
def test_any_legal_auction_is_accepted_and_ends_at_a_six_or_after_the_dealers_call(auction):
    calls, seats = auction.calls, auction.seats
    assert auction.finished
    assert (len(calls) == seats) or (calls[-1] == 6)
    assert 6 not in calls[:-1]
    bids = [call for call in calls if call != PASS]
    assert bids == sorted(set(bids))  # strictly higher each time
    assert all(bid in (3, 4, 5, 6) for bid in bids)
    assert Auction(auction.dealer_seat, calls, seats) == auction  # the same calls in one go
    order = [seat_left_of(auction.dealer_seat, k, seats) for k in range(1, seats + 1)]
    assert order[-1] == auction.dealer_seat  # the dealer last
    assert [seat for seat, _ in auction.turns()] == order[: len(calls)]
    assert auction.thrown_in == (not bids)
    if bids:
        assert auction.highest_bid == bids[-1]
        assert auction.bidder_seat == order[calls.index(bids[-1])]
    else:
        assert auction.bidder_seat is None


@FAST
@given(unfinished_auctions(), st.data())
def test_a_bid_not_higher_than_the_highest_is_refused(auction, data):
    assume(auction.highest_bid is not None)
    low = data.draw(st.integers(3, auction.highest_bid))
    try:
        auction.call(low)
    except RuleViolation as error:
        assert error.code == "bid_not_higher"
    else:
        raise AssertionError(f"{low} after {auction.highest_bid} was accepted")


@FAST
@given(unfinished_auctions(), st.data())
def test_a_call_out_of_turn_is_refused(auction, data):
    seat = data.draw(st.integers(1, auction.seats))
    assume(seat != seat_left_of(auction.dealer_seat, len(auction.calls) + 1, auction.seats))
    call = data.draw(st.sampled_from(auction.legal_calls()))
    try:
        auction.call(call, seat=seat)
    except RuleViolation as error:
        assert error.code == "out_of_turn"
    else:
        raise AssertionError(f"seat {seat} called out of turn")


@FAST
@given(auctions(), st.sampled_from([PASS, 3, 4, 5, 6]), st.sampled_from([None, *SEATS]))
def test_no_call_after_the_auction_is_over(auction, call, seat):
    try:
        auction.call(call, seat=seat)
    except RuleViolation as error:
        assert error.code == "auction_over"
    else:
        raise AssertionError("a call after the end was accepted")


@FAST
@given(unfinished_auctions(), st.sampled_from([0, 1, 2, 7, 10, -3, "", "x", "2", None, 4.0]))
def test_a_call_that_is_not_a_pass_or_bid_is_refused(auction, value):
    try:
        auction.call(value)
    except RuleViolation as error:
        assert error.code == "call_invalid"
    else:
        raise AssertionError(f"{value!r} was accepted as a call")


# --- hands ---------------------------------------------------------------------------

@FAST
@given(legal_games())
def test_engine_agrees_with_the_rules_read_independently(game):
    rules, first_dealer, deals = game
    state = replay(rules, first_dealer, deals)
    hands, winner = expected_game(rules, first_dealer, deals)
    assert len(state.deals) == len(hands) == len(deals)
    for result, expected in zip(state.deals, hands):
        assert result.dealer_seat == expected["dealer"]
        assert result.thrown_in == expected["thrown_in"]
        assert result.scores_after == expected["scores"]
        if not expected["thrown_in"]:
            assert result.bidder_seat == expected["bidder"]
            assert result.bid == expected["bid"]
            assert result.bidding_team == expected["bidding_team"]
            assert result.taken == expected["taken"]
            assert result.made == expected["made"]
            assert result.score_change == expected["change"]
            assert result.verdict.winner == expected["winner"]
            assert result.tally.game == expected["game"]
    assert state.winner == winner


@FAST
@given(legal_games())
def test_a_played_hand_gives_out_five_points_if_game_is_tied_else_six(game):
    rules, first_dealer, deals = game
    state = replay(rules, first_dealer, deals)
    teams = teams_of(rules.teams.value)
    for result, deal in zip(state.deals, deals):
        if result.thrown_in:
            continue
        tied = game_winner(deal.tally, teams) is None
        assert sum(result.taken.values()) == (5 if tied else 6)
        assert all(0 <= taken <= 6 for taken in result.taken.values())


@FAST
@given(legal_games())
def test_made_scores_what_was_taken_set_scores_minus_the_bid_others_score_theirs(game):
    rules, first_dealer, deals = game
    for result in replay(rules, first_dealer, deals).deals:
        if result.thrown_in:
            continue
        team, bid = result.bidding_team, result.bid
        if result.taken[team] >= bid:
            assert result.made
            assert result.score_change[team] == result.taken[team]
        else:
            assert not result.made
            assert result.score_change[team] == -bid
        for other in result.taken:
            if other != team:
                assert result.score_change[other] == result.taken[other]


@FAST
@given(legal_games())
def test_scores_are_the_sum_of_the_score_changes(game):
    rules, first_dealer, deals = game
    state = replay(rules, first_dealer, deals)
    running = {team: 0 for team in teams_of(rules.teams.value)}
    for result in state.deals:
        if not result.thrown_in:
            running = {team: running[team] + result.score_change[team] for team in running}
        assert result.scores_after == running
    assert state.scores == running


@FAST
@given(legal_games())
def test_the_dealer_moves_left_once_per_played_hand_never_for_a_throw_in(game):
    rules, first_dealer, deals = game
    state = replay(rules, first_dealer, deals)
    seats = TABLE[rules.teams.value]
    played = 0
    for result in state.deals:
        assert result.dealer_seat == seat_left_of(first_dealer, played, seats)
        played += not result.thrown_in
    assert state.hands_played == played
    assert state.next_dealer == seat_left_of(first_dealer, played, seats)


@FAST
@given(legal_games())
def test_a_winner_has_reached_the_target(game):
    rules, first_dealer, deals = game
    state = replay(rules, first_dealer, deals)
    for result in state.deals[:-1]:
        assert not result.verdict.finished  # the game went on only while nobody had won
    if not state.finished:
        return
    last = [result for result in state.deals if not result.thrown_in][-1]
    winner = state.winner
    assert state.scores[winner] >= rules.target
    bidder_went_out = (
        rules.bidder_goes_out and last.made and winner == last.bidding_team
    )
    if not bidder_went_out:
        assert state.scores[winner] == max(state.scores.values())
        tied = [team for team, score in state.scores.items() if score == state.scores[winner]]
        assert len(tied) == 1 or winner == last.bidding_team
    if state.verdict.kind is VerdictKind.BIDDER_GOES_OUT:
        assert bidder_went_out


@st.composite
def standings(draw):
    """Rules, scores near the target (so that reaching it and ties are common), the
    bidding team and whether it made its bid."""
    rules = draw(house_rules())
    teams = teams_of(rules.teams.value)
    near = st.integers(rules.target - 3, rules.target + 2)
    scores = {team: draw(near) for team in teams}
    return rules, scores, draw(st.sampled_from(teams)), draw(st.booleans())


@settings(max_examples=400, deadline=None)
@given(standings())
def test_the_end_of_the_game_follows_the_rules(standing):
    rules, scores, bidding_team, made = standing
    verdict = judge(rules, scores, bidding_team, made)
    assert verdict.target == rules.target
    assert verdict.winner == end_of_game(rules, scores, bidding_team, made)
    assert verdict.finished == (verdict.winner is not None)
    reached = [team for team in scores if scores[team] >= rules.target]
    if verdict.winner is not None:
        assert scores[verdict.winner] >= rules.target
    if verdict.kind is VerdictKind.BIDDER_GOES_OUT:
        assert rules.bidder_goes_out and made and verdict.winner == bidding_team
    elif verdict.kind is VerdictKind.PLAYING:
        assert not reached
    elif verdict.kind is VerdictKind.REACHED:
        assert reached == [verdict.winner]
    elif verdict.kind is VerdictKind.MORE_POINTS:
        assert len(reached) > 1
        assert all(scores[verdict.winner] > scores[team] for team in scores if team != verdict.winner)
    elif verdict.kind is VerdictKind.BIDDER_BREAKS_TIE:
        assert verdict.winner == bidding_team
        assert scores[bidding_team] == max(scores.values())
        assert [scores[team] for team in scores].count(scores[bidding_team]) > 1
    else:
        assert verdict.kind is VerdictKind.TIE_PLAY_ON
        assert len(scores) >= 3  # only possible with three teams or more
        assert bidding_team not in verdict.teams
        assert len(verdict.teams) >= 2
        top = max(scores.values())
        assert top >= rules.target
        assert set(verdict.teams) == {team for team in scores if scores[team] == top}


@QUICK
@given(legal_games())
def test_replaying_the_same_deals_gives_the_same_game(game):
    rules, first_dealer, deals = game
    first = replay(rules, first_dealer, deals)
    second = replay(rules, first_dealer, list(deals))
    assert first.scores == second.scores
    assert first.deals == second.deals
    assert first.verdict == second.verdict
    assert first.next_dealer == second.next_dealer


@QUICK
@given(legal_games())
def test_every_prefix_of_a_game_replays_to_its_own_standing(game):
    rules, first_dealer, deals = game
    whole = replay(rules, first_dealer, deals)
    for n in range(len(deals)):
        part = replay(rules, first_dealer, deals[:n])
        assert part.deals == whole.deals[:n]



@QUICK
@given(legal_games(), st.data())
def test_carrying_on_from_any_point_gives_the_whole_replay(game, data):
    # Recording a hand plays it on from the game as it stood: the same game as a replay
    # of every hand from the first.
    rules, first_dealer, deals = game
    whole = replay(rules, first_dealer, deals)
    cut = data.draw(st.integers(0, len(deals)), label="cut")
    carried = carry_on(replay(rules, first_dealer, deals[:cut]), deals[cut:])
    assert carried == whole


@FAST
@given(games(targets=LOW_TARGET), st.data())
def test_carrying_on_refuses_what_the_whole_replay_refuses_with_its_number(game, data):
    rules, first_dealer, deals = game
    hands, winner = expected_game(rules, first_dealer, deals)
    assume(winner is not None and len(hands) < len(deals))
    cut = data.draw(st.integers(0, len(hands)), label="cut")
    try:
        carry_on(replay(rules, first_dealer, deals[:cut]), deals[cut:])
    except HandRejected as error:
        assert error.code == "game_over"
        assert error.number == len(hands) + 1
    else:
        raise AssertionError("a hand after the end was accepted")

@FAST
@given(games(targets=LOW_TARGET), st.booleans())
def test_a_hand_after_the_game_is_over_is_refused(game, throw_in):
    rules, first_dealer, deals = game
    hands, winner = expected_game(rules, first_dealer, deals)
    assume(winner is not None)
    over = deals[: len(hands)]
    state = replay(rules, first_dealer, over)
    assert state.winner == winner
    seats = TABLE[rules.teams.value]
    extra = Deal((PASS,) * seats) if throw_in else Deal((3, *(PASS,) * (seats - 1)), "clubs",
                                                        Tally(dict.fromkeys(CARD_POINT_NAMES, "A")))
    try:
        replay(rules, first_dealer, [*over, extra])
    except HandRejected as error:
        assert error.code == "game_over"
        assert error.number == len(over) + 1
    else:
        raise AssertionError("a hand after the end was accepted")


# --- illegal changes to a legal game -------------------------------------------------

def mutate(data, deal, teams, seats):
    """One illegal change to a deal, and the code its refusal must carry."""
    thrown_in = all(call == PASS for call in deal.calls)
    if thrown_in:
        kind = data.draw(st.sampled_from(["trump", "tally", "extra_call", "short", "bad_call"]))
    else:
        kind = data.draw(st.sampled_from([
            "extra_call", "short", "bad_call", "not_higher", "no_trump", "bad_trump",
            "no_tally", "drop_point", "stranger", "unknown_point", "game_over_81",
            "negative_value", "stranger_game",
        ]))
    calls = tuple(deal.calls)
    if kind == "trump":
        return Deal(calls, data.draw(st.sampled_from(SUITS))), "throw_in_scored"
    if kind == "tally":
        return Deal(calls, None, Tally(dict.fromkeys(CARD_POINT_NAMES, "A"))), "throw_in_scored"
    if kind == "extra_call":
        return Deal((*calls, data.draw(st.sampled_from([PASS, 6]))), deal.trump, deal.tally), "auction_over"
    if kind == "short":
        cut = data.draw(st.integers(0, len(calls) - 1))
        return Deal(calls[:cut], deal.trump, deal.tally), "auction_unfinished"
    if kind == "bad_call":
        at = data.draw(st.integers(0, len(calls) - 1))
        bad = data.draw(st.sampled_from([0, 2, 7, "x", None, "2"]))
        return Deal((*calls[:at], bad, *calls[at + 1:]), deal.trump, deal.tally), "call_invalid"
    if kind == "not_higher":
        first_bid = next(i for i, call in enumerate(calls) if call != PASS)
        bid = int(calls[first_bid])
        if bid == 6 or first_bid == seats - 1:  # nothing may follow a six, nor the dealer's call
            return Deal((*calls[: first_bid + 1], 6), deal.trump, deal.tally), "auction_over"
        low = data.draw(st.integers(3, bid))
        return Deal((*calls[: first_bid + 1], low), deal.trump, deal.tally), "bid_not_higher"
    if kind == "no_trump":
        return Deal(calls, None, deal.tally), "trump_missing"
    if kind == "bad_trump":
        return Deal(calls, data.draw(st.sampled_from(["", "trumps", "♠", "Hearts"])), deal.tally), "trump_invalid"
    if kind == "no_tally":
        return Deal(calls, deal.trump, None), "tally_missing"
    card_points = dict(deal.tally.card_points)
    game, values = deal.tally.game, deal.tally.game_values
    if kind == "drop_point":
        del card_points[data.draw(st.sampled_from(CARD_POINT_NAMES))]
        return Deal(calls, deal.trump, Tally(card_points, game, values)), "point_unassigned"
    if kind == "stranger":
        stranger = data.draw(st.sampled_from(strangers(teams)))
        card_points[data.draw(st.sampled_from(CARD_POINT_NAMES))] = stranger
        return Deal(calls, deal.trump, Tally(card_points, game, values)), "point_not_a_team"
    if kind == "unknown_point":
        card_points[data.draw(st.sampled_from(["game", "trump", "ten"]))] = teams[0]
        return Deal(calls, deal.trump, Tally(card_points, game, values)), "point_unknown"
    if kind == "game_over_81":
        split = data.draw(st.integers(0, 82))
        over = {teams[0]: split, teams[1]: 82 - split + data.draw(st.integers(0, 20))}
        return Deal(calls, deal.trump, Tally(card_points, None, over)), "game_values_over"
    if kind == "negative_value":
        return Deal(calls, deal.trump, Tally(card_points, None, {teams[-1]: -data.draw(st.integers(1, 81))})), "game_value_invalid"
    assert kind == "stranger_game"
    stranger = strangers(teams)[0]
    return Deal(calls, deal.trump, Tally(card_points, stranger)), "point_not_a_team"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_games(), st.data())
def test_an_illegal_change_to_any_deal_is_refused_with_its_number(game, data):
    rules, first_dealer, deals = game
    assume(deals)
    at = data.draw(st.integers(0, len(deals) - 1))
    teams = teams_of(rules.teams.value)
    bad, code = mutate(data, deals[at], teams, TABLE[rules.teams.value])
    changed = [*deals[:at], bad, *deals[at + 1:]]
    try:
        replay(rules, first_dealer, changed)
    except HandRejected as error:
        assert error.code == code, (error.code, code, bad)
        assert error.number == at + 1
        assert error.violation.code == code
    else:
        raise AssertionError(f"accepted {bad!r}, expected {code}")
    # the deals before it are still fine on their own
    replay(rules, first_dealer, deals[:at])


@given(auctions(), st.data())
def test_a_reseated_auction_keeps_its_bidder_bid_and_every_call_it_can(auction, data):
    """A hand dealt by another seat than recorded (a forgotten hand put in before it)
    keeps who bid what: the same bidder and bid, or everyone passing, from the new
    dealer's left."""
    dealer = data.draw(st.integers(1, auction.seats), label="dealer")
    moved, whole = reseated(auction, dealer)
    assert moved.dealer_seat == dealer and moved.finished
    assert moved.seats == auction.seats
    assert moved.thrown_in == auction.thrown_in
    assert (moved.bidder_seat, moved.highest_bid) == (auction.bidder_seat, auction.highest_bid)
    said, now = dict(auction.turns()), dict(moved.turns())
    if moved != quick_auction(dealer, auction.bidder_seat, auction.highest_bid, auction.seats) \
            if not auction.thrown_in else False:
        for seat, call in moved.turns():  # each seat says what it said (or passes)
            assert call == said.get(seat, PASS)
    assert whole == all(now.get(seat) == call for seat, call in said.items()
                        if call != PASS or seat in now)
