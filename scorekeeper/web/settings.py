"""Every setting of the app, with its default and where it comes from: read here only.

``create_app`` starts from ``defaults()``, then takes the environment's values
(``from_environment``), then ``instance/config.py`` (or a test's own mapping), and
reads every yes-or-no setting one way (``switch``). The rest of the app reads
``app.config`` and never the environment. README's "Settings" table
lists the same names.
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

# What a person running the server may set, in the environment: name -> meaning.
ENVIRONMENT = {
    "DATABASE_URL": "SQLite (the default, in the instance folder) or PostgreSQL",
    "SECRET_KEY": "signs the session, CSRF tokens and device cookies",
    "SCOREKEEPER_OPEN_SIGNUP": "on: anyone may make a club of their own",
    "SCOREKEEPER_BEHIND_PROXY": "on: trust the proxy's X-Forwarded-* headers",
}
# The environment's yes-or-no settings, and the name each sets.
ENVIRONMENT_SWITCHES = {"SCOREKEEPER_OPEN_SIGNUP": "OPEN_SIGNUP",
                        "SCOREKEEPER_BEHIND_PROXY": "PROXY_FIX"}
# Every yes-or-no setting, wherever it was said: each is read by ``switch``.
SWITCHES = ("OPEN_SIGNUP", "PROXY_FIX", "PAGE_CACHE_SHARED", "SERVER_TIMING")
# How on and off may be written, in any case ("" is off: a variable set to nothing).
ON = {"1", "true", "yes", "on"}
OFF = {"0", "false", "no", "off", ""}


class SettingRefused(ValueError):
    """A setting whose value the app can't read: the server won't start with it."""


def switch(name: str, value: object) -> bool:
    """A yes-or-no setting, read the one way: 1, true, yes or on (in any case) is on;
    0, false, no, off or nothing is off; anything else stops the start with a message
    that names the setting. ``True`` and ``False`` from ``instance/config.py`` read as
    themselves."""
    word = str(value).strip().lower()
    if word in ON:
        return True
    if word in OFF:
        return False
    raise SettingRefused(
        f"{name} is {value!r}: write 1, true, yes or on to turn it on, "
        f"or 0, false, no or off to leave it off")


def read_switches(config: dict) -> None:
    """Every yes-or-no setting read by ``switch``, once all sources have spoken."""
    for name in SWITCHES:
        config[name] = switch(name, config[name])


def defaults(instance_path: str | Path) -> dict:
    """The settings before anything is said: what a plain ``flask run`` gets."""
    return {
        "DATABASE_URL": f"sqlite:///{Path(instance_path) / 'scorekeeper.sqlite'}",
        # The secret key is generated into the instance folder when none is given.
        "SECRET_KEY": None,
        # Anyone may make a club of their own (else the first club only, from the server's
        # own machine, then the commands).
        "OPEN_SIGNUP": False,
        # Behind a proxy: its X-Forwarded-Proto/-For are believed (HTTPS, the address).
        "PROXY_FIX": False,
        # Each worker keeps the game pages it rendered, up to this many bytes (0: none).
        "PAGE_CACHE_BYTES": 32 * 1024 * 1024,
        # Poll answers after a change kept in the database too, for the other app servers.
        "PAGE_CACHE_SHARED": True,
        # Under gevent's workers, the native threads that draw pages beside the greenlets
        # answering polls (web/aside.py); 0: every request on its greenlet. More contend
        # for the interpreter (CPU) but draw while another page waits on the database.
        # None: by the database (``store/db.py``, ``render_threads``).
        "RENDER_THREADS": None,
        # Each answer says where its time went (web/timing.py): for a bench, not a club.
        "SERVER_TIMING": False,
        # A page's poll is held this long while nothing changes, answered at the change
        # (table/waiting.py); 0: answered at once, the page asking every 2 seconds.
        "LIVE_WAIT_SECONDS": 25,
        # The largest upload: a game file (and any form); a backup has its own limit.
        "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
        # Years of a large club (5,000 games, 100,000 hands) come to about 50 MB.
        "MAX_BACKUP_LENGTH": 64 * 1024 * 1024,
        # An evening lasts hours: a form opened at the start must still post at the end.
        "WTF_CSRF_TIME_LIMIT": None,
        # Over HTTPS a change must come from this app's own origin: security.py checks
        # the Origin, else the Referer; Flask-WTF's own check reads the Referer alone.
        "WTF_CSRF_SSL_STRICT": False,
        "PERMANENT_SESSION_LIFETIME": 60 * 60 * 24 * 31,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "BABEL_DEFAULT_LOCALE": "en",
        # Pages, htmx answers and static files compressed for browsers that ask.
        "COMPRESS_ALGORITHM": ["br", "gzip"],
        "COMPRESS_MIMETYPES": [
            "text/html", "text/css", "text/javascript", "application/javascript",
            "application/json", "text/csv", "image/svg+xml", "application/manifest+json"],
    }


def from_environment(environ: Mapping[str, str]) -> dict:
    """The settings the environment gives (only those it gives)."""
    found: dict = {}
    if environ.get("DATABASE_URL"):
        found["DATABASE_URL"] = environ["DATABASE_URL"]
    if environ.get("SECRET_KEY"):
        found["SECRET_KEY"] = environ["SECRET_KEY"]
    for variable, name in ENVIRONMENT_SWITCHES.items():
        if variable in environ:
            found[name] = switch(variable, environ[variable])
    return found
