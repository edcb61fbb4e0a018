"""scorekeeper: keeps score for Schmier at the card table."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask

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
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL")
        or f"sqlite:///{Path(app.instance_path) / 'scorekeeper.sqlite'}",
        # An evening lasts hours: a form opened at the start must still post at the end.
        WTF_CSRF_TIME_LIMIT=None,
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 31,
        SESSION_COOKIE_SAMESITE="Lax",
        BABEL_DEFAULT_LOCALE="en",
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        # Anyone may make a club of their own (else only the first visitor, then commands).
        OPEN_SIGNUP=os.environ.get("SCOREKEEPER_OPEN_SIGNUP") == "1",
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or _instance_secret(app)

    from scorekeeper import assets, db, extensions, security

    assets.init_app(app)
    extensions.init_app(app)
    security.init_app(app)
    db.init_app(app)

    from scorekeeper import access
    from scorekeeper.views import (
        backups, club, errors, evenings, exchange, games, hands, health, join, offline,
        players, rules,
    )

    access.init_app(app)
    from scorekeeper import languages, page_cache

    languages.init_app(app)
    page_cache.init_app(app)

    app.register_blueprint(games.bp)
    app.register_blueprint(evenings.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(backups.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(exchange.bp)
    app.register_blueprint(club.bp)
    app.register_blueprint(join.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(offline.bp)
    errors.init_app(app)

    from scorekeeper import cli

    cli.init_app(app)
    return app


def _instance_secret(app: Flask) -> str:
    """The secret key kept in the instance folder, made on first start."""
    path = Path(app.instance_path) / "secret_key"
    if not path.exists():
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
