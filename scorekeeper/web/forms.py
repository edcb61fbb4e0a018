"""Forms. Rule checks live in the rules engine; these parse fields and carry CSRF."""
from __future__ import annotations

import secrets
from datetime import date

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField, DateField, Field, HiddenField, IntegerField, RadioField, StringField,
    ValidationError,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (
    AnyOf, DataRequired, InputRequired, Length, NumberRange, Optional, Regexp,
)

from scorekeeper.rules import SEATS, HouseRules, TeamLayout
from scorekeeper.rules import house
from scorekeeper.rules.house import HouseRule
from scorekeeper.store.models import (
    CLUB_NAME_LENGTH, ENTRY_KEY_LENGTH, NOTE_LENGTH, PLACE_LENGTH, PLAYER_NAME_LENGTH,
    SCREEN, SEASON_NAME_LENGTH, Ladder, Role, utcnow,
)
from scorekeeper.text.digits import latin_digits
from scorekeeper.text.names import clean_name

RANDOM = "random"
NEW_EVENING = "new"


def all_errors(form: FlaskForm) -> list[str]:
    """Each field's errors, named by the field: "Play to: Not a valid integer value." """
    return [f"{field.label.text}: {error}" for field in form for error in field.errors]


def first_error(form: FlaskForm) -> str:
    errors = all_errors(form)
    return errors[0] if errors else ""


# The earliest day an evening or a game may be dated: anything before it is a slip of
# the keyboard, not a club's history.
EARLIEST_DAY = date(1900, 1, 1)


def from_earliest_day(_form, field) -> None:
    """A date field's check: no day before ``EARLIEST_DAY``."""
    if field.data and field.data < EARLIEST_DAY:
        raise ValidationError(_l("Give a date in %(year)s or later.", year=EARLIEST_DAY.year))


class WholeNumberField(IntegerField):
    """A whole number as the reader typed it: Persian or Arabic-Indic digits are read as
    0-9, and a form shown again (refused) shows it so, as a number input can take it."""

    def process_formdata(self, valuelist):
        if valuelist:
            self.raw_data = valuelist = [
                latin_digits(value) if isinstance(value, str) else value for value in valuelist]
        super().process_formdata(valuelist)


class ChangeForm(FlaskForm):
    """Any change to a game's hands. ``revision`` is the game's revision the page showed:
    a page shown before another phone's change must not write over it."""

    revision = WholeNumberField(validators=[Optional()])


class HandForm(ChangeForm):
    """Record or save a hand. ``number`` is the hand the page was showing; ``entry_key``
    the phone's own name for this entry, the same each time it sends it again."""

    number = WholeNumberField(validators=[InputRequired()])
    entry_key = StringField(validators=[Optional(), Regexp(rf"^[A-Za-z0-9-]{{8,{ENTRY_KEY_LENGTH}}}\Z")])


class UndoForm(ChangeForm):
    number = WholeNumberField(validators=[InputRequired()])


class ConfirmForm(UndoForm):
    """A hand confirmed: its number, and the revision of the page it was confirmed on."""


class RestoreForm(ChangeForm):
    hand_id = WholeNumberField(validators=[InputRequired()])


# A seat's name is checked by seating.py (with the message the table reads); the field
# only stops the phone's keyboard at the longest name a seat takes.
SEAT = {"maxlength": PLAYER_NAME_LENGTH}
SPLIT_LENGTH = 20  # "14-25-36" and more than enough


MOST_TABLES = 9  # an evening's tables: more than a club's room holds


# The new-game form's table layouts, a table of six first (the game as the seeds deal
# it), then four, then five; each one's words (``rules.table.TeamLayout``).
LAYOUT_WORDS = {
    TeamLayout.THREE_PAIRS: _l("Three pairs (1 & 4, 2 & 5, 3 & 6)"),
    TeamLayout.TWO_TRIOS: _l("Two teams of three (1, 3, 5 and 2, 4, 6)"),
    TeamLayout.CUTTHROAT_SIX: _l("Each for themselves"),
    TeamLayout.TWO_PAIRS: _l("Two pairs (1 & 3, 2 & 4)"),
    TeamLayout.CUTTHROAT_FOUR: _l("Each for themselves"),
    TeamLayout.CUTTHROAT_FIVE: _l("Each for themselves"),
}


class NewGameForm(FlaskForm):
    """The seats of a table of four, five or six, its teams, the house rules and the
    first dealer. The form has six seat fields; the layout says how many are the table's
    (``seat_fields``); the others are kept, unseen, for a table of six chosen again."""

    seat_1 = StringField(_l("Seat 1"), render_kw=SEAT)
    seat_2 = StringField(_l("Seat 2"), render_kw=SEAT)
    seat_3 = StringField(_l("Seat 3"), render_kw=SEAT)
    seat_4 = StringField(_l("Seat 4"), render_kw=SEAT)
    seat_5 = StringField(_l("Seat 5"), render_kw=SEAT)
    seat_6 = StringField(_l("Seat 6"), render_kw=SEAT)
    teams = RadioField(
        _l("Teams"),
        choices=[SelectChoice(str(layout), words) for layout, words in LAYOUT_WORDS.items()],
        default=str(TeamLayout.THREE_PAIRS),
        validate_choice=True,
    )
    target = WholeNumberField(
        _l("Play to"), default=21,
        validators=[InputRequired(_l("Give the target score.")),
                    NumberRange(HouseRules.MIN_TARGET, HouseRules.MAX_TARGET,
                                _l("The target must be from %(min)s to %(max)s."))],
    )
    # Choices are set per request (tonight's evening, if any); left out, the view picks
    # tonight's, else a new one.
    evening = RadioField(_l("Evening"), choices=[SelectChoice(NEW_EVENING, _l("A new evening"))],
                         default=None)
    place = StringField(_l("Place (optional)"), validators=[Optional(), Length(max=PLACE_LENGTH)])
    note = StringField(_l("Note (optional)"), validators=[Optional(), Length(max=NOTE_LENGTH)])
    # Where the evening plays at several tables at once: this game's.
    table = WholeNumberField(
        _l("Table"), default=1,
        validators=[Optional(), NumberRange(1, MOST_TABLES,
                                            _l("The table is from %(min)s to %(max)s."))])
    first_dealer = RadioField(
        _l("First dealer"),
        choices=[SelectChoice(RANDOM, _l("Draw at random"))]
        + [SelectChoice(str(s), str(s)) for s in SEATS],
        default=RANDOM,
    )
    # The balancing buttons' value: the split to seat ("best", or the seats of each team,
    # "14-25-36"). Sent only by them: a form with it seats players and starts nothing.
    balance = StringField(_l("Split"), validators=[Optional(), Length(max=SPLIT_LENGTH)])

    @property
    def layout(self) -> TeamLayout:
        """The layout chosen (three pairs while none is, or one not offered)."""
        chosen = self.teams.data
        return TeamLayout(chosen) if chosen in LAYOUT_WORDS else TeamLayout.THREE_PAIRS

    def layouts_by_size(self):
        """The teams' choices by the table's size, in ``LAYOUT_WORDS``' order: (seats,
        their options)."""
        sizes = dict.fromkeys(TeamLayout(option.data).seats for option in self.teams)
        return [(seats, [option for option in self.teams
                         if TeamLayout(option.data).seats == seats]) for seats in sizes]

    def all_seat_fields(self):
        return [self.seat_1, self.seat_2, self.seat_3, self.seat_4, self.seat_5, self.seat_6]

    def seat_fields(self):
        """The seats of the table chosen."""
        return self.all_seat_fields()[:self.layout.seats]

    def unseen_seat_fields(self):
        """The seats a smaller table leaves out: kept as they were typed, unused."""
        return self.all_seat_fields()[self.layout.seats:]

    def names(self) -> list[str]:
        return [field.data or "" for field in self.seat_fields()]

    def seat_name(self, seat: int) -> str:
        """The name typed in ``seat`` so far ("" while empty), as the table will read it."""
        return clean_name(self.names()[seat - 1])

    def house_rule_fields(self) -> list[tuple[HouseRule, Field]]:
        """Each house rule the declaration holds (``rules.house``), with its field."""
        return [(rule, self[rule.name]) for rule in house.HOUSE_RULES if rule.name in self]

    def house_rules(self) -> HouseRules:
        chosen = {rule.name: rule.read(bool(field.data)) if rule.on_or_off
                  else rule.from_form(field.data) for rule, field in self.house_rule_fields()}
        return HouseRules(teams=self.teams.data, target=self.target.data, **chosen)

    def dealer(self) -> int | None:
        return None if self.first_dealer.data == RANDOM else int(self.first_dealer.data)

    def dealer_choices(self):
        """The first dealer's choices at the table chosen: at random, or one of its seats."""
        seats = {str(seat) for seat in self.layout.seat_numbers}
        return [option for option in self.first_dealer if option.data in seats | {RANDOM}]

    def validate_first_dealer(self, field) -> None:
        if field.data in {str(seat) for seat in SEATS} and int(field.data) > self.layout.seats:
            raise ValidationError(_l("A table of %(seats)s has no seat %(seat)s.",
                                     seats=self.layout.seats, seat=field.data))

    def balancing_errors(self) -> list[str]:
        """What stops the teams being balanced (the names aside): the page's token, the
        layout, the first dealer (who stays the same player) and the split asked for. The
        house rules are checked when the game starts."""
        return [f"{field.label.text}: {error}" for field in self
                if field.name in ("csrf_token", "teams", "first_dealer", "balance")
                for error in field.errors]


def _house_rule_field(rule: HouseRule) -> Field:
    """A house rule's field, as its declaration says: a box to tick for a rule on or
    off, else a choice of its values."""
    if rule.on_or_off:
        return BooleanField(_l(rule.words), default=rule.default, validators=[Optional()])
    return RadioField(_l(rule.words), default=rule.to_form(rule.default), validate_choice=True,
                      choices=[SelectChoice(rule.to_form(choice.value), _l(choice.words))
                               for choice in rule.choices])


def new_game_form(**given) -> NewGameForm:
    """The new-game form with a field for each house rule declared now (``rules.house``):
    a rule added to the declaration is on the form with nothing else to write."""
    fields = {rule.name: _house_rule_field(rule) for rule in house.HOUSE_RULES}
    return type("NewGameForm", (NewGameForm,), fields)(**given)


class ImportForm(FlaskForm):
    """The game file to import, and the day it was played (none: today); the game goes
    into that day's evening."""

    game_file = FileField(
        _l("Game file (JSON)"), validators=[FileRequired(_l("Choose a game file to import."))]
    )
    played_on = DateField(_l("Date played"), validators=[Optional(), from_earliest_day])

    def validate_played_on(self, field) -> None:
        if field.data and field.data > utcnow().date():
            raise ValidationError(_l("A game can't be dated later than today."))


def _one_line(value):
    return clean_name(value) if isinstance(value, str) else value


class NewClubForm(FlaskForm):
    club_name = StringField(_l("The club's name"), filters=[_one_line],
                            validators=[DataRequired(), Length(max=CLUB_NAME_LENGTH)])
    your_name = StringField(_l("Your name"), filters=[_one_line],
                            validators=[DataRequired(), Length(max=PLAYER_NAME_LENGTH)])


def new_join_key() -> str:
    """The phone's name for one join, made with its form: 192 random bits."""
    return secrets.token_urlsafe(24)


class JoinForm(FlaskForm):
    """A name to join by. ``join_key`` is the phone's key for this join, made with the
    form and the same each time the phone sends it again."""

    your_name = StringField(_l("Your name"), filters=[_one_line],
                            validators=[DataRequired(), Length(max=PLAYER_NAME_LENGTH)])
    join_key = HiddenField(default=new_join_key,
                           validators=[Optional(), Regexp(r"^[A-Za-z0-9_-]{22,64}\Z")])


class CodeForm(FlaskForm):
    code = StringField(_l("Code"), filters=[_one_line],
                       validators=[DataRequired(), Length(max=20)])


class NewLinkForm(FlaskForm):
    role = RadioField(_l("They may"), choices=[
        SelectChoice(Role.SCORER, _l("keep score")), SelectChoice(Role.VIEWER, _l("watch only")),
        SelectChoice(SCREEN, _l("show tonight's boards on a TV")),
    ], default=Role.VIEWER, validators=[InputRequired()])


class PlainForm(FlaskForm):
    """A button that changes one thing named in its URL (revoke, forget, remove)."""


class LanguageForm(FlaskForm):
    """The language picker: one button per language (its value names it)."""

    lang = StringField(validators=[DataRequired(), Length(max=8)])


class SwapSeatsForm(ChangeForm):
    """Two seats whose players change places (confirmed once the consequences are shown)."""

    first = WholeNumberField(validators=[InputRequired(), NumberRange(min=1, max=len(SEATS))])
    second = WholeNumberField(validators=[InputRequired(), NumberRange(min=1, max=len(SEATS))])


class RenameSeatForm(ChangeForm):
    """Another name for the player of one seat (checked by seating.py, like a new game's)."""

    seat = WholeNumberField(validators=[InputRequired(), NumberRange(min=1, max=len(SEATS))])
    name = StringField(render_kw=SEAT)


class SubstituteForm(ChangeForm):
    """A seat's new player from a hand on (the name checked by seating.py, like a new
    game's)."""

    seat = WholeNumberField(_l("Seat"), validators=[InputRequired(),
                                                    NumberRange(min=1, max=len(SEATS))])
    from_hand = WholeNumberField(_l("From hand"), validators=[InputRequired()])
    name = StringField(_l("Who took the seat"), render_kw=SEAT)


class TakeBackForm(ChangeForm):
    """A substitute taken back: the seat and the hand they came in at."""

    seat = WholeNumberField(_l("Seat"), validators=[InputRequired(),
                                                    NumberRange(min=1, max=len(SEATS))])
    from_hand = WholeNumberField(_l("From hand"), validators=[InputRequired()])


class AbandonForm(ChangeForm):
    """Abandon the game, or take it back into play (confirmed after the consequences)."""


# Each ladder's figure by name: the form's choices, the standings' heading.
LADDER_NAMES = {Ladder.GAMES_WON: _l("Games won"), Ladder.PLACE: _l("Average place"),
                Ladder.RATING: _l("Rating gained")}
# The most evenings a season's rule asks for: more than a club meets in years.
MOST_EVENINGS = 999


class SeasonForm(FlaskForm):
    """A season: its name, its first and last days (both included) and its ladder's
    rule. Whether it overlaps another season is the view's to check (the database's)."""

    name = StringField(_l("Name"), filters=[_one_line],
                       validators=[DataRequired(_l("Give the season a name.")),
                                   Length(max=SEASON_NAME_LENGTH)])
    starts_on = DateField(_l("First day"), validators=[InputRequired(_l("Give its first day."))])
    ends_on = DateField(_l("Last day"), validators=[InputRequired(_l("Give its last day."))])
    ranked_by = RadioField(
        _l("Ranked by"),
        choices=[SelectChoice(ladder.value, name) for ladder, name in LADDER_NAMES.items()],
        default=Ladder.GAMES_WON.value, validate_choice=True)
    min_evenings = WholeNumberField(
        _l("Evenings to qualify"), default=0,
        validators=[InputRequired(_l("Give a number of evenings, 0 or more.")),
                    NumberRange(0, MOST_EVENINGS, _l("From %(min)s to %(max)s."))])
    drop_worst = WholeNumberField(
        _l("Worst evenings dropped"), default=0,
        validators=[InputRequired(_l("Give a number of evenings, 0 or more.")),
                    NumberRange(0, MOST_EVENINGS, _l("From %(min)s to %(max)s."))])

    def validate_ends_on(self, field) -> None:
        if self.starts_on.data and field.data and field.data < self.starts_on.data:
            raise ValidationError(_l("The last day can't come before the first."))


class PlanEveningForm(FlaskForm):
    """An evening: its date and where. Today or later, it is planned, for who is coming;
    an earlier day adds an evening already played, its games recorded or imported
    afterwards."""

    played_on = DateField(_l("Date"), validators=[InputRequired(_l("Give the evening's date.")),
                                                  from_earliest_day])
    place = StringField(_l("Place (optional)"), validators=[Optional(), Length(max=PLACE_LENGTH)])
    note = StringField(_l("Note (optional)"), validators=[Optional(), Length(max=NOTE_LENGTH)])


class ComingForm(FlaskForm):
    """A member's answer to a planned evening: the button tapped says in or out."""

    coming = StringField(validators=[AnyOf(["in", "out"], _l("Say in or out."))])


class ConfirmingForm(FlaskForm):
    """A scorer turns the evening's confirmation on or off: the button tapped says which."""

    confirming = StringField(validators=[AnyOf(["on", "off"], _l("Say on or off."))])


class TablesForm(FlaskForm):
    """Whether the club prefers tables of six at an evening's next round: a box to tick
    (sent as "y", or not at all)."""

    prefers_sixes = BooleanField(_l("Prefer tables of six"))

    def validate_prefers_sixes(self, field) -> None:
        if any(value != "y" for value in field.raw_data or ()):
            raise ValidationError(_l("Tick the box or leave it empty; nothing was changed."))


class PlayerForm(FlaskForm):
    """The player a member is at the table: tapped once on their phone, or an owner's fix."""

    player_id = WholeNumberField(validators=[InputRequired(_l("Tap your name."))])
