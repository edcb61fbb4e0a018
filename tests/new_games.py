"""Starting a game through the new-game page, as every test that needs one does."""
from __future__ import annotations

SEAT_NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]


def new_game_form(names=SEAT_NAMES, **overrides) -> dict:
    """The new-game form: six seats, three pairs to 21, seat 1 dealing first."""
    form = {f"seat_{i}": name for i, name in enumerate(names, start=1)}
    form.update({"teams": "3x2", "target": "21", "first_dealer": "1"})
    form.update(overrides)
    return form


def start_game_as(client, **overrides) -> int:
    """Start a game with that phone (a Flask test client); the new game's id."""
    response = client.post("/games/new", data=new_game_form(**overrides))
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return int(response.headers["Location"].rsplit("/", 1)[1])
