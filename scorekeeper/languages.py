"""The table's languages: which one a page speaks, the picker, and digits.

The language comes from the device's choice (a cookie set by the picker), else the
browser's Accept-Language, else English. Persian is written right to left, and shows
Persian digits, as CLDR says it should.
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, has_request_context, redirect, request
from flask_babel import get_locale

from scorekeeper.forms import LanguageForm

# Each language in its own name and script, in the order the picker lists them.
LANGUAGES = {
    "en": "English", "fa": "فارسی", "sk": "Slovenčina", "lo": "ລາວ", "te": "తెలుగు",
    "fy": "Frysk",
}
RIGHT_TO_LEFT = {"fa"}
COOKIE = "lang"
COOKIE_DAYS = 400
# CLDR's default digits where they are not 0-9 (Persian: extended Arabic-Indic).
DIGITS = {"fa": str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")}

bp = Blueprint("languages", __name__)


def select_locale() -> str:
    if not has_request_context():
        return "en"  # a command line speaks English
    if request.endpoint == "games.chart" and request.args.get("lang") in LANGUAGES:
        return request.args["lang"]  # an image in its page's language, kept under it
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default="en")


def current_language() -> str:
    try:
        locale = get_locale()
    except RuntimeError:  # outside a request: a command line speaks English
        return "en"
    return locale.language if locale else "en"


# A tag and the text after it, up to the next tag.
_TEXT = re.compile(r"(<[^>]*>)([^<]+)(?=<)")
# Character references (&#39; &amp;) are left whole: their digits are not a reader's.
_REFERENCE = re.compile(r"(&#?[0-9A-Za-z]+;)")
# Text a reader copies or types as it is (a link, a code) is marked to be kept.
KEEP = "data-keep-digits"
# In Persian text: a number right after a Latin name or team letter ("Dan ۵", "A +۲",
# "Dan: ۳") would join the name's left-to-right run and be read first. A right-to-left
# mark between them keeps the reading order: the name, then its number.
_LATIN_THEN_NUMBER = re.compile(r"([A-Za-z][)\]:]?)([ \u00a0]*)(?=\u200e?[−+]?[۰-۹])")
RLM = "\u200f"


def _persian_words(text: str) -> str:
    text = text.translate(DIGITS["fa"])
    text = _LATIN_THEN_NUMBER.sub(lambda m: m.group(1) + RLM + m.group(2), text)
    # Persian writes its own comma, and a middle dot "·" looks like its zero "۰".
    return text.replace(", ", "، ").replace("·", "•")


def _persian_text(text: str) -> str:
    return "".join(part if _REFERENCE.fullmatch(part) else _persian_words(part)
                   for part in _REFERENCE.split(text))


def page_digits(html: str, language: str) -> str:
    """The page's text (never its tags, attributes, addresses or character references)
    in the language's digits and punctuation: every number a reader sees, whichever code
    wrote it, except in an element marked ``data-keep-digits``."""
    if language not in DIGITS:
        return html

    def rewrite(match: re.Match) -> str:
        tag, text = match.group(1), match.group(2)
        return match.group(0) if KEEP in tag else tag + _persian_text(text)

    return _TEXT.sub(rewrite, html)


def _safe_next(target: str | None) -> str:
    """Only a path of this site: the picker never sends anyone elsewhere."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


@bp.post("/language")
def choose():
    """Remember the language chosen on this device, then go back to the page."""
    form = LanguageForm()
    response = redirect(_safe_next(request.form.get("next")), 303)
    if form.validate_on_submit() and form.lang.data in LANGUAGES:
        response.set_cookie(COOKIE, form.lang.data, max_age=COOKIE_DAYS * 24 * 3600,
                            httponly=True, samesite="Lax", secure=request.is_secure)
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)

    @app.after_request
    def own_digits(response: Response) -> Response:
        if (response.status_code == 204 or response.direct_passthrough
                or response.mimetype not in ("text/html", "image/svg+xml")):
            return response  # a poll's 204 asks for no language at all
        language = current_language()
        if language in DIGITS:
            response.set_data(page_digits(response.get_data(as_text=True), language))
        return response

    @app.context_processor
    def language_context() -> dict:
        language = current_language()
        return {"page_locale": language, "page_dir": "rtl" if language in RIGHT_TO_LEFT else "ltr",
                # The digits the page writes in, for the page's script to write them too.
                "page_digits": "0123456789".translate(DIGITS[language]) if language in DIGITS
                else None,
                "languages": LANGUAGES,
                # Not read from the request: a page answering a refused upload can't.
                "language_form": LanguageForm(formdata=None)}
