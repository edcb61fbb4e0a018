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
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    # Every setting and its default: scorekeeper/web/settings.py (README, "Settings").
    app.config.from_mapping(settings.defaults(app.instance_path))
    app.config.from_mapping(settings.from_environment(os.environ))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    settings.read_switches(app.config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(app)

    from scorekeeper.web import assets, extensions, security

    # Extensions first: Flask runs after_request hooks last-registered first, so

    from scorekeeper.store import db
    # Flask-Compress's runs after every other one, on the finished response.
    extensions.init_app(app)
    assets.init_app(app)
    security.init_app(app)
    db.init_app(app)

    from scorekeeper.clubs import access
    from scorekeeper.views import (
        backups, club, corrections, errors, evenings, exchange, games, hands, health, join,
        offline, players, rules,
    )

    access.init_app(app)
    from scorekeeper.web import languages
    from scorekeeper.views import page_cache

    languages.init_app(app)
    page_cache.init_app(app)

    app.register_blueprint(games.bp)
    app.register_blueprint(evenings.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(backups.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(corrections.bp)
    app.register_blueprint(exchange.bp)
    app.register_blueprint(club.bp)
    app.register_blueprint(join.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(offline.bp)
    errors.init_app(app)

    from scorekeeper.cli import commands as cli

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
