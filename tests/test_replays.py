"""The last replay of each game, kept by the process to carry on from (store.replay.Replays):
whatever it is asked, it answers what a full replay of the deals gives, and plays on
from what it kept only where the kept deals begin the ones asked about."""
from hypothesis import given, settings, HealthCheck, strategies as st

from scorekeeper.rules import PASS, Deal, HouseRules, Tally, replay
from scorekeeper.store.replay import Replays

from tests.rules.test_properties import legal_games

THREE = (3, PASS, PASS, PASS, PASS, PASS)


def played(owners: str) -> Deal:
    names = ("high", "low", "right", "left", "joker")
    return Deal(THREE, "hearts", Tally(dict(zip(names, owners)), game="A"))


RULES = HouseRules(teams="3x2", target=99)
DEALS = (played("AABBC"), Deal((PASS,) * 6), played("BBCCA"), played("CCAAB"))


def test_the_same_deals_again_are_not_played_again():
    replays = Replays(games=8)
    first = replays.state(1, RULES, 1, DEALS)
    again = replays.state(1, RULES, 1, DEALS)
    assert again is first
    assert (replays.replayed, replays.carried) == (1, 1)


def test_one_more_deal_is_played_on_from_the_kept_game():
    replays = Replays(games=8)
    replays.state(1, RULES, 1, DEALS[:3])
    state = replays.state(1, RULES, 1, DEALS)
    assert state == replay(RULES, 1, DEALS)
    assert (replays.replayed, replays.carried) == (1, 1)


def test_a_changed_hand_before_the_last_is_replayed_from_the_first():
    replays = Replays(games=8)
    replays.state(1, RULES, 1, DEALS)
    edited = (DEALS[0], DEALS[1], played("AAAAA"), DEALS[3])
    state = replays.state(1, RULES, 1, edited)
    assert state == replay(RULES, 1, edited)
    assert state.scores != replay(RULES, 1, DEALS).scores
    assert replays.replayed == 2


def test_fewer_deals_after_an_undo_are_replayed():
    replays = Replays(games=8)
    replays.state(1, RULES, 1, DEALS)
    assert replays.state(1, RULES, 1, DEALS[:2]) == replay(RULES, 1, DEALS[:2])
    assert replays.replayed == 2


def test_other_house_rules_or_another_first_dealer_are_replayed():
    replays = Replays(games=8)
    replays.state(1, RULES, 1, DEALS)
    other_rules = HouseRules(teams="3x2", target=31, bidder_goes_out=True)
    assert replays.state(1, other_rules, 1, DEALS) == replay(other_rules, 1, DEALS)
    assert replays.state(1, other_rules, 4, DEALS) == replay(other_rules, 4, DEALS)
    assert replays.replayed == 3


def test_each_game_is_kept_apart_and_the_oldest_go_first():
    replays = Replays(games=2)
    replays.state(1, RULES, 1, DEALS)
    replays.state(2, RULES, 2, DEALS)
    replays.state(3, RULES, 3, DEALS)  # game 1 goes
    assert replays.state(2, RULES, 2, DEALS) == replay(RULES, 2, DEALS)
    assert replays.state(1, RULES, 1, DEALS) == replay(RULES, 1, DEALS)
    assert (replays.replayed, replays.carried) == (4, 1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(legal_games(), min_size=1, max_size=6), st.data())
def test_any_reads_in_any_order_answer_the_full_replay(games, data):
    # Games of one id read in turn, cut anywhere, as reads and changes interleave.
    replays = Replays(games=4)
    for _ in range(len(games) * 3):
        rules, first_dealer, deals = data.draw(st.sampled_from(games), label="game")
        cut = data.draw(st.integers(0, len(deals)), label="cut")
        game_id = data.draw(st.integers(1, 3), label="id")
        asked = tuple(deals[:cut])
        assert replays.state(game_id, rules, first_dealer, asked) == replay(
            rules, first_dealer, asked)
