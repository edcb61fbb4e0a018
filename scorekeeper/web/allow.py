"""Who may use a route, said on the route itself: ``@allow(Allow.SCORE)`` under its
``@bp.get``/``@bp.post``.

The check made before every request (``clubs.access``) and the tests
(tests/test_access.py) read it from the route: no list of routes says it again, and a
route without it answers nobody (a test fails first).
"""
from __future__ import annotations

from enum import StrEnum
from typing import Callable, TypeVar

from flask import Flask

View = TypeVar("View", bound=Callable)


class Allow(StrEnum):
    PUBLIC = "public"  # anyone, members or not
    FRONT = "front"  # the home page: members see it, strangers are sent to make or join
    READ = "read"  # any member (a viewer changes nothing there)
    DEVICE = "device"  # any member, for themselves: their device, answer, player, a confirm
    SCORE = "score"  # scorers and owners
    OWN = "own"  # owners only
    SCREEN = "screen"  # anyone holding a live screen link, members or not


# Flask's own routes, which no decorator of ours reaches: the static files.
FLASKS_OWN = {"static": Allow.PUBLIC}


def allow(kind: Allow) -> Callable[[View], View]:
    """Declare who may use the view's route."""
    def declared(view: View) -> View:
        view.allow = kind  # type: ignore[attr-defined]
        return view
    return declared


def allowed(app: Flask, endpoint: str | None) -> Allow | None:
    """Who may use the endpoint's route, as declared on it (None: no such route, or a
    route that says nothing, which nobody may use)."""
    if endpoint in FLASKS_OWN:
        return FLASKS_OWN[endpoint]
    return getattr(app.view_functions.get(endpoint), "allow", None)
