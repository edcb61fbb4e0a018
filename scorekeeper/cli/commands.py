"""Command-line commands: flask --app scorekeeper <command>."""
from __future__ import annotations

import json
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from flask_babel import gettext as _
from sqlalchemy.exc import DBAPIError
from sqlmodel import select

from scorekeeper.cli import clubs as club_cli
from scorekeeper.figures import ratings, summaries
from scorekeeper.figures.ratings import best_first, club_ratings
from scorekeeper.files.backup import (
    backup_contents, backup_limit, backup_text, club_backup, read_backup, restore_backup,
    restore_server,
)
from scorekeeper.files.exchange import export_text, import_game
from scorekeeper.files.json_files import FileRefused
from scorekeeper.rules import phone
from scorekeeper.files.nightly import (
    BackupFailed, back_up_every_club, newest_backups, write_whole,
)
from scorekeeper.store.db import driver_said, get_session
from scorekeeper.store.models import Club, Game, Player
from scorekeeper.store.replay import Replay, load_replay
from scorekeeper.store.rosters import club_game


CLUB_OPTION = click.option("--club", "club_id", type=int, default=None,
                           help="The club's id (see `clubs`); may be left out while there "
                                "is one club.")


def game_line(replay: Replay) -> str:
    """One game as a tab-separated line, id first: id, date, status, scores, teams."""
    state = replay.state
    status = f"won by {state.winner}" if state.finished else "playing"
    teams = replay.rules.team_names
    scores = " · ".join(f"{team} {state.scores[team]}" for team in teams)
    players = " / ".join(replay.team_label(team) for team in teams)
    date = replay.game.created_at.strftime("%Y-%m-%d")
    return "\t".join((str(replay.game.id), date, status, scores, players))


def command_club(session, club_id: int | None) -> Club:
    """The club a command acts for: the one named, else the only one there is."""
    if club_id is not None:
        club = session.get(Club, club_id)
        if club is None:
            raise click.ClickException(f"there is no club {club_id}")
        return club
    clubs = session.exec(select(Club).order_by(Club.id)).all()
    if not clubs:
        raise click.ClickException(_("there is no club yet: make one with create-club NAME"))
    if len(clubs) > 1:
        # Taking the first would act on the wrong club's games without a word.
        raise click.ClickException(_(
            "there are several clubs, so say which with --club ID: %(clubs)s",
            clubs=", ".join(f"{club.id} ({club.name})" for club in clubs)))
    return clubs[0]


def database_silent(error: DBAPIError) -> str:
    """The database's failure in a few words."""
    return _("the database did not answer (%(error)s)", error=driver_said(error))


@click.command("games")
@with_appcontext
@CLUB_OPTION
def games_command(club_id: int | None) -> None:
    """List the club's games, one per line, id first."""
    session = get_session()
    club = command_club(session, club_id)
    for game in session.exec(select(Game).where(Game.club_id == club.id).order_by(Game.id)):
        click.echo(game_line(load_replay(session, game)))


@click.command("export-game")
@with_appcontext
@CLUB_OPTION
@click.argument("game_id", type=int)
def export_game_command(game_id: int, club_id: int | None) -> None:
    """Print game GAME_ID as JSON (format schmier-game/1)."""
    session = get_session()
    game = club_game(session, command_club(session, club_id), game_id)
    if game is None:
        raise click.ClickException(f"there is no game {game_id}")
    click.echo(export_text(load_replay(session, game)), nl=False)


@click.command("import-game")
@with_appcontext
@CLUB_OPTION
@click.argument("game_file", type=click.File("rb"))
def import_game_command(game_file, club_id: int | None) -> None:
    """Import a game from GAME_FILE (JSON, as exported; - for stdin); print its id."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    # One byte past the limit is enough to know the file is too large.
    raw = game_file.read(limit + 1) if limit else game_file.read()
    session = get_session()
    try:
        game = import_game(session, command_club(session, club_id), raw, limit)
    except FileRefused as refused:
        raise click.ClickException(
            f"nothing was imported from {game_file.name}: {refused}"
        ) from None
    click.echo(game.id)


@click.command("write-phone-rules")
@with_appcontext
def write_phone_rules_command() -> None:
    """Write static/rules_data.js, the rules' data the phone plays by offline, from the
    rules engine's declarations (after a change to a layout, a bid or a house rule)."""
    path = Path(current_app.static_folder or "") / phone.FILE
    path.write_text(phone.phone_module(), encoding="utf-8")
    click.echo(path)


def init_app(app: Flask) -> None:
    app.cli.add_command(write_phone_rules_command)
    app.cli.add_command(games_command)
    app.cli.add_command(export_game_command)
    app.cli.add_command(import_game_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(backup_all_command)
    app.cli.add_command(restore_command)
    app.cli.add_command(restore_all_command)
    app.cli.add_command(owner_link_command)
    app.cli.add_command(ratings_command)
    app.cli.add_command(catch_up_command)

    club_cli.init_app(app)


@click.command("backup")
@with_appcontext
@CLUB_OPTION
@click.argument("backup_file", type=click.Path(dir_okay=False, allow_dash=True,
                                               path_type=Path))
def backup_command(backup_file: Path, club_id: int | None) -> None:
    """Write the club's backup to BACKUP_FILE (JSON; - for stdout)."""
    session = get_session()
    try:
        backup = club_backup(session, command_club(session, club_id), members=True)
    except DBAPIError as error:
        raise click.ClickException(_("nothing was backed up: %(problem)s",
                                     problem=database_silent(error))) from None
    if str(backup_file) == "-":
        click.echo(backup_text(backup), nl=False)
        shown = "-"
    else:
        shown = str(_written_whole(backup_file, backup_text(backup)))
    # On stderr, so that "backup -" leaves stdout to the file alone.
    click.echo(_("Backed up %(contents)s to %(file)s.", contents=backup_contents(backup),
                 file=shown), err=True)


def _written_whole(path: Path, text: str) -> Path:
    """The backup written as the nightly writes its own: whole or not at all, and read
    by the server's user alone (it holds live links, which let their holder in)."""
    try:
        return write_whole(path.parent, path.name, text)
    except OSError as error:  # named by the file asked for, not the draft beside it
        raise click.ClickException(_(
            "nothing was backed up: %(problem)s",
            problem=f"{path}: {error.strerror or error}")) from None


@click.command("backup-all")
@with_appcontext
@click.option("--keep", type=click.IntRange(1), default=14, show_default=True,
              help="How many backups of each club to keep, the newest.")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
def backup_all_command(folder: Path, keep: int) -> None:
    """Write every club's backup into FOLDER, each whole or not at all, then keep the
    newest KEEP of each club (a failed run removes none and exits with 1)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        written = back_up_every_club(get_session(), folder, keep)
    except (BackupFailed, OSError, DBAPIError) as failed:
        problem = database_silent(failed) if isinstance(failed, DBAPIError) else str(failed)
        raise click.ClickException(_("the backups were not all written, and none was "
                                     "removed: %(problem)s", problem=problem)) from None
    for one in written:
        click.echo(_("Backed up %(contents)s to %(file)s.", contents=one.contents,
                     file=str(one.path)))


@click.command("restore")
@with_appcontext
@CLUB_OPTION
@club_cli.BASE_URL
@click.argument("backup_file", type=click.File("rb"))
def restore_command(backup_file, club_id: int | None, base_url: str) -> None:
    """Restore a backup from BACKUP_FILE (- for stdin) into an empty club (a new one if
    there is none), with its members where nobody is let in yet; else print the
    one-time link that lets its owner back in."""
    limit = backup_limit()
    # One byte past the limit is enough to know the file is too large.
    raw = backup_file.read(limit + 1)
    session = get_session()
    club = _club_to_restore(session, club_id)
    try:
        restored = restore_backup(session, club, raw, limit, members=True)
    except FileRefused as refused:
        raise click.ClickException(_("nothing was restored from %(file)s: %(problem)s",
                                     file=backup_file.name, problem=str(refused))) from None
    _say_restored(session, club, restored, backup_file.name, base_url)


def _club_to_restore(session, club_id: int | None) -> Club:
    """The club named, else the only one, else (a fresh database) a new one."""
    if club_id is None and session.exec(select(Club.id)).first() is None:
        club = Club(name="")  # named by the backup
        session.add(club)
        session.flush()
        return club
    return command_club(session, club_id)


def _say_restored(session, club: Club, restored, file_name: str, base_url: str) -> None:
    click.echo(_("Restored %(contents)s from %(file)s.", contents=restored.contents(),
                 file=file_name))
    if restored.members:
        click.echo(_("Its members are back, and their phones are still signed in."))
    else:
        # Without its members nobody could open the restored club without this.
        club_cli.print_owner_link(session, club, base_url)


@click.command("restore-all")
@with_appcontext
@club_cli.BASE_URL
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
def restore_all_command(folder: Path, base_url: str) -> None:
    """Restore a whole server from FOLDER, where backup-all writes: the newest backup of
    each club, into an empty database, each club with its own id and its members.
    Every file is checked before anything is written; one refused restores nothing."""
    newest = newest_backups(folder)
    if not newest:
        raise click.ClickException(_("there is no club's backup (club-ID-TIME.json) in "
                                     "%(folder)s", folder=str(folder)))
    limit = backup_limit()
    checked = {}
    for club_id, path in newest.items():
        try:
            with path.open("rb") as file:
                checked[club_id] = read_backup(file.read(limit + 1), limit)
        except FileRefused as refused:
            raise click.ClickException(_("nothing was restored from %(file)s: %(problem)s",
                                         file=str(path), problem=str(refused))) from None
    session = get_session()
    try:
        restored = restore_server(session, checked)
    except FileRefused as refused:
        raise click.ClickException(_("nothing was restored from %(file)s: %(problem)s",
                                     file=str(folder), problem=str(refused))) from None
    for club_id, one in restored.items():
        _say_restored(session, session.get(Club, club_id), one, str(newest[club_id]), base_url)


@click.command("owner-link")
@with_appcontext
@CLUB_OPTION
@club_cli.BASE_URL
def owner_link_command(club_id: int | None, base_url: str) -> None:
    """Print a one-time link that makes its first opener the club's owner (after a
    restore, or a lost phone); the owner links printed before it stop working."""
    session = get_session()
    club_cli.print_owner_link(session, command_club(session, club_id), base_url)


@click.command("ratings")
@with_appcontext
@CLUB_OPTION
def ratings_command(club_id: int | None) -> None:
    """Print the club's ratings as JSON, best first: each rated player's name, mu,
    sigma, rated games and the number pages show (null while "new")."""
    session = get_session()
    club = command_club(session, club_id)
    ratings.catch_up(session, club.id)  # every game rated, however many were new
    names = dict(session.exec(
        select(Player.id, Player.name).where(Player.club_id == club.id)).all())
    click.echo(json.dumps(
        [{"player": names[player_id], "mu": rating.mu, "sigma": rating.sigma,
          "games": rating.games, "rating": None if rating.is_new else rating.points}
         for player_id, rating in best_first(club_ratings(session, club.id))],
        ensure_ascii=False, indent=2))


@click.command("catch-up")
@with_appcontext
@click.option("--club", "club_id", type=int, default=None,
              help="The club's id (see `clubs`); every club if left out.")
def catch_up_command(club_id: int | None) -> None:
    """Bring the kept statistics and ratings up to date with every game, a batch at a
    time (pages do a batch per visit): after an import or a restore, or at start."""
    session = get_session()
    clubs = ([command_club(session, club_id)] if club_id is not None
             else session.exec(select(Club).order_by(Club.id)).all())
    for club in clubs:
        counted = summaries.catch_up(session, club.id)
        rated = ratings.catch_up(session, club.id)
        click.echo(f"club {club.id}: {counted} games counted, {rated} rated")
