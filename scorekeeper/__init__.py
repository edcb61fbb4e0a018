"""scorekeeper: keeps score for Schmier at the card table."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask

from scorekeeper.web import settings

PACKAGE = Path(__file__).resolve().parent


def site_folder(name: str) -> Path:
    """``templates`` or ``static``: inside the package where a wheel installed it, else
    the checkout's own, at the top (where the project keeps them)."""
    installed = PACKAGE / name
    return installed if installed.is_dir() else PACKAGE.parent / name


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: settings, database, extensions, views and commands."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(site_folder("templates")),
        static_folder=str(site_folder("static")),
    )
    _configure(app, test_config)
    _wire(app)
    return app


def _configure(app: Flask, test_config: dict | None) -> None:
    """Every setting and its default: scorekeeper/web/settings.py (README, "Settings")."""
    app.config.from_mapping(settings.defaults(app.instance_path))
    app.config.from_mapping(settings.from_environment(os.environ))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    settings.read_switches(app.config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(app)


def _wire(app: Flask) -> None:
    """Every room's part of the app, set up on it: extensions, the database, who is
    asking, the views and the commands; last, what it all made, frozen where served."""
    from scorekeeper.cli import commands
    from scorekeeper.clubs import access
    from scorekeeper.store import db
    from scorekeeper.views import (
        backups, club, corrections, errors, evenings, exchange, games, hands, health, join,
        offline, page_cache, players, rules, screens, seasons,
    )
    from scorekeeper.web import aside, assets, extensions, heap, languages, security, timing

    # Extensions first: Flask runs after_request hooks last-registered first, so
    # Flask-Compress's runs after every other one, on the finished response. Renders set
    # aside last: outermost, so a request is in the render pool for all of its work.
    for part in (extensions, assets, security, db, timing, access, languages, page_cache,
                 aside):
        part.init_app(app)
    for views in (games, evenings, players, seasons, backups, hands, corrections, exchange, club, join,
                  rules, health, offline, screens):
        app.register_blueprint(views.bp)
    errors.init_app(app)
    commands.init_app(app)
    heap.init_app(app)  # last: what the app holds from its start, frozen where served


def _instance_secret(app: Flask) -> str:
    """The secret key kept in the instance folder, made on first start."""
    path = Path(app.instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written whole to a file of its own, then linked into place: two workers starting
        # at once can't read a half-written key or keep two different ones.
        draft = path.with_name(f"secret_key.{os.getpid()}.{secrets.token_hex(4)}")
        draft.write_text(secrets.token_hex(32))
        draft.chmod(0o600)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()
