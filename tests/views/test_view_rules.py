"""The rules page: open to anyone, with the trump order of the suit asked for."""
from __future__ import annotations

import re


def trumps(html: str) -> list[str]:
    row = re.search(r'class="trump-order"[^>]*>(.*?)</p>', html, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", card) for card in re.findall(r"<span>(.*?)</span>", row)]


def test_anyone_reads_the_rules_with_the_trump_order_of_hearts_by_default(stranger):
    page = stranger.get("/rules")
    assert page.status_code == 200
    assert trumps(page.text) == ["A♥", "K♥", "Q♥", "J♥", "J♦", "10♥", "9♥", "8♥", "7♥",
                                 "6♥", "5♥", "4♥", "3♥", "2♥", "Joker"]
    assert re.sub(r"<[^>]+>", "", page.text).count("Right Bauer: J♥. Left Bauer: J♦.") == 1


def test_the_order_follows_the_trump_asked_for_and_ignores_a_bad_one(stranger):
    assert trumps(stranger.get("/rules?trump=clubs").text)[3:5] == ["J♣", "J♠"]
    assert trumps(stranger.get("/rules?trump=nonsense").text)[0] == "A♥"


def test_the_game_page_links_to_the_rules_with_its_trump(client, start_game):
    game = start_game()
    page = client.get(f"/games/{game}?number=1&calls=pass,4,pass,pass,pass,pass"
                      "&trump=spades").text
    assert f'href="/rules?trump=spades&amp;game={game}"' in page
    back = client.get(f"/rules?trump=spades&game={game}").text
    assert f'href="/games/{game}"' in back
    assert trumps(back)[4] == "J♣"
