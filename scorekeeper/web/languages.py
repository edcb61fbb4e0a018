"""The table's languages: which one a page speaks, the picker, and digits.

The language comes from the device's choice (a cookie set by the picker), else the
browser's Accept-Language, else English. Persian is written right to left, and shows
Persian digits, as CLDR says it should.
"""
from __future__ import annotations

import json

import re
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, g, has_request_context, redirect, request
from flask_babel import get_locale, get_translations
from markupsafe import Markup

from scorekeeper.text.names import TYPED_END, TYPED_START
from scorekeeper.web.forms import LanguageForm
from scorekeeper.web.allow import Allow, allow

# Each language in its own name and script, in the order the picker lists them.
LANGUAGES = {
    "en": "English", "fa": "فارسی", "sk": "Slovenčina", "lo": "ລາວ", "te": "తెలుగు",
    "fy": "Frysk",
}
RIGHT_TO_LEFT = {"fa"}
# The score chart's addresses (a member's, a screen link's): each names its language.
PICTURES = {"games.chart", "screens.chart"}
COOKIE = "lang"
COOKIE_DAYS = 400
# What a language writes its own way: CLDR's default digits where they are not 0-9
# (Persian: extended Arabic-Indic), and Persian's own comma and percent sign (CLDR's,
# though Babel gives "%"); a middle dot "·" looks like its zero "۰". The page's script
# is given the same (``data-written``).
WRITTEN = {"fa": {**dict(zip("0123456789", "۰۱۲۳۴۵۶۷۸۹")), ",": "،", "%": "٪", "·": "•"}}
DIGITS = {language: str.maketrans({mark: its for mark, its in marks.items() if mark.isdigit()})
          for language, marks in WRITTEN.items()}
_MARKS = {language: str.maketrans(marks) for language, marks in WRITTEN.items()}

bp = Blueprint("languages", __name__)


def select_locale() -> str:
    if not has_request_context():
        return "en"  # a command line speaks English
    if request.endpoint in PICTURES and request.args.get("lang") in LANGUAGES:
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


# The page is read as markup (comments, and tags whose quoted values may hold ">") and the
# text between it, text before the first tag too: an htmx fragment may be a bare sentence.
_MARKUP = re.compile(r"""(<!--.*?-->|<[!?/]?[A-Za-z][^"'>]*(?:(?:"[^"]*"|'[^']*')[^"'>]*)*>)""",
                     re.S)
_TAG_NAME = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)")
_ATTRIBUTE = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?""")
# Character references (&#39; &amp;) are left whole: their digits are not a reader's.
_REFERENCE = re.compile(r"(&#?[0-9A-Za-z]+;)")
# Elements whose text is not a reader's prose at all: read as raw text up to their end.
_RAW_TEXT = ("script", "style")
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
         "source", "track", "wbr"}


def _kept(tag: str) -> bool:
    """What people typed (names, places, notes), codes, addresses and paths into a file
    are shown as written: marked as HTML marks text not to be translated."""
    for name, value in _ATTRIBUTE.findall(tag[_TAG_NAME.match(tag).end():]):
        if name.lower() == "translate" and value.strip("\"'").lower() == "no":
            return True
    return False


_TYPED_IN_TEXT = re.compile(f"({TYPED_START}[^{TYPED_END}]*{TYPED_END})")


def _persian_words(text: str) -> str:
    return text.translate(_MARKS["fa"])


def _persian_text(text: str) -> str:
    return "".join(part if _REFERENCE.fullmatch(part) else _persian_words(part)
                   for part in _REFERENCE.split(text))


def page_digits(html: str, language: str) -> str:
    """The page's prose (never its tags, attributes, comments, scripts, character
    references, or an element marked ``translate="no"``) in the language's digits and
    punctuation: every number a reader sees, whichever code wrote it, once for whole
    pages and fragments alike."""
    if language not in DIGITS:
        return html
    out: list[str] = []
    kept, depth = None, 0  # the kept element's name, and how deep inside its kind we are
    position = 0
    while position < len(html):
        found = _MARKUP.search(html, position)
        text_end = found.start() if found else len(html)
        if text_end > position:
            text = html[position:text_end]
            out.append(text if kept else _persian_text(text))
        if not found:
            break
        tag = found.group(0)
        out.append(tag)
        position = found.end()
        name = _TAG_NAME.match(tag)
        if not name:
            continue  # a comment, a doctype
        closing, tag_name = name.group(1) == "/", name.group(2).lower()
        opens = not closing and not tag.endswith("/>") and tag_name not in _VOID
        if opens and tag_name in _RAW_TEXT:
            close = re.compile(rf"</{tag_name}\s*>", re.I).search(html, position)
            raw_end = close.start() if close else len(html)
            out.append(html[position:raw_end])
            position = raw_end
        elif kept is None:
            if opens and _kept(tag):
                kept, depth = tag_name, 1
        elif tag_name == kept:
            depth += -1 if closing else 1 if opens else 0
            if depth == 0:
                kept = None
    return "".join(out)


def text_digits(text: str, language: str) -> str:
    """Plain text (a recap to share) in the language's digits and punctuation, but for
    what people typed (``text.names.typed_text``), kept as written."""
    if language not in DIGITS:
        return text
    return "".join(part if part.startswith(TYPED_START) else _persian_words(part)
                   for part in _TYPED_IN_TEXT.split(text))


def reader_digits(value) -> str:
    """A number as the reader writes it, for a field's value (attributes are never
    rewritten): a number field in Persian shows and takes Persian digits."""
    language = current_language()
    text = "" if value is None else str(value)
    return text.translate(DIGITS[language]) if language in DIGITS else text


def number_attributes(low: int, high: int | None = None) -> dict[str, str]:
    """A number field's type: a number input where the reader writes 0-9 (its keypad
    stops at ``low``-``high``); a text field taking only digits where the reader writes
    its own, because a number input neither shows nor takes them."""
    if current_language() in DIGITS:
        return {"type": "text", "pattern": "[0-9۰-۹٠-٩]+"}
    limits = {"min": str(low)} | ({"max": str(high)} if high is not None else {})
    return {"type": "number", **limits}


def number_type(low: int, high: int | None = None) -> Markup:
    """``number_attributes`` written out, for a field a template writes itself."""
    return Markup(" ").join(Markup('%s="%s"') % item for item in number_attributes(low, high).items())


def _safe_next(target: str | None) -> str:
    """Only a path of this site: the picker never sends anyone elsewhere."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


@bp.post("/language")
@allow(Allow.PUBLIC)
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

    app.jinja_env.filters["reader_digits"] = reader_digits
    app.jinja_env.globals.update(number_attributes=number_attributes, number_type=number_type)

    @app.context_processor
    def language_context() -> dict:
        language = current_language()
        return {"page_locale": language, "page_dir": "rtl" if language in RIGHT_TO_LEFT else "ltr",
                # The digits and marks the page writes, for its script to write them too.
                "page_written": json.dumps(WRITTEN[language], ensure_ascii=False)
                if language in WRITTEN else None,
                "languages": LANGUAGES,
                # Not read from the request: a page answering a refused upload can't.
                "language_form": LanguageForm(formdata=None)}


def request_translations():
    """The request's catalogue, looked up once per request (a page asks for hundreds of
    messages; Flask-Babel finds the catalogue anew for each one)."""
    translations = g.get("_translations")
    if translations is None:
        translations = g._translations = get_translations()
    return translations
