"""Security headers and cookie flags on every response the app sends.

Both are applied around the WSGI app rather than in an ``after_request`` hook: Flask
writes the session cookie after every hook has run, and this way the session cookie,
cookies set by any later code and error pages are all covered, with no hook ordering
to get right.
"""
from __future__ import annotations

from collections.abc import Iterable

from flask import Flask, g, request
from flask_wtf.csrf import CSRFProtect, same_origin
from werkzeug.exceptions import BadRequest
from werkzeug.http import dump_cookie, parse_cookie
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Request

# No inline script or style anywhere: htmx is told not to inject its indicator <style>
# and not to eval (see the htmx-config meta tag in base.html).
CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
))

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    # Invite links carry their token in the URL: it must never leave the app in a
    # Referer. Its own pages' requests say where they come from (Referer and a real
    # Origin: "no-referrer" makes a form's Origin "null"), which ``came_from_this_app``
    # checks over HTTPS.
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    # frame-ancestors 'none' says the same to browsers that know CSP level 2.
    "X-Frame-Options": "DENY",
}


# A backup's upload has a size limit of its own, which its view sets before anything
# reads the body (the CSRF check included): nothing here may read it first. Its only
# text field is that CSRF token; the file is checked by the backup's reader.
BODY_READ_BY_ITS_VIEW = {"backups.restore"}


class SameOriginForms(CSRFProtect):
    """Flask-WTF's token check on every change, then where the request comes from.

    Flask-WTF's own second check over HTTPS reads the Referer alone
    (``WTF_CSRF_SSL_STRICT``, off in settings.py); this one reads the Origin first,
    which every browser sends on a POST and which no privacy setting strips."""

    def protect(self, apply_exemptions: bool = False) -> None:
        super().protect(apply_exemptions)
        if g.get("csrf_valid") and not came_from_this_app():
            g.pop("csrf_valid")  # the token was right, the request still isn't
            self._error_response("The request comes from another origin.")


def came_from_this_app() -> bool:
    """Whether the request says it comes from this app's own origin: its Origin, else
    its Referer. Saying nothing passes over plain HTTP only (no browser leaves both out
    of a POST to an HTTPS page; over HTTP on a LAN the token is all there is)."""
    here = f"{request.scheme}://{request.host}/"
    origin = request.headers.get("Origin")
    if origin and origin != "null":
        return same_origin(origin, here)
    if request.referrer:
        return same_origin(request.referrer, here)
    return not request.is_secure


class UnstorableInput(BadRequest):
    """A form or an address held a NUL character: no database column can keep one
    (PostgreSQL refuses it outright), and no name, code or note needs one."""


def refuse_nul_characters() -> None:
    """Before anything reads the database: a NUL anywhere in the address or the form is
    refused whole, with a page saying so, instead of failing deep in a query."""
    # Cheap first looks (every poll passes here): a NUL in a query is written %00.
    texts = []
    if b"%00" in request.query_string:
        texts.append(request.args.items(multi=True))
    if "\x00" in request.path:
        raise UnstorableInput()
    if request.method not in ("GET", "HEAD", "OPTIONS") \
            and request.endpoint not in BODY_READ_BY_ITS_VIEW:
        # Typed text, urlencoded or multipart (an uploaded file is read, and checked for
        # NULs, by its own view).
        texts.append(request.form.items(multi=True))
    for pairs in texts:
        for key, value in pairs:
            if "\x00" in key or "\x00" in value:
                raise UnstorableInput()


def init_app(app: Flask) -> None:
    """Headers and cookie flags on every response; ProxyFix when behind a proxy."""
    app.before_request(refuse_nul_characters)
    app.wsgi_app = SecureResponses(app.wsgi_app)  # type: ignore[method-assign]
    if app.config["PROXY_FIX"]:
        # Outermost, so the scheme and host it reads from the proxy's X-Forwarded-*
        # headers are what everything inside (``request.is_secure`` included) sees.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=1, x_proto=1, x_host=1, x_prefix=1)


class SecureResponses:
    """WSGI middleware: adds the security headers and fixes every Set-Cookie header."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        secure = Request(environ, shallow=True).is_secure

        def start(status, headers, exc_info=None):
            return start_response(status, secured_headers(headers, secure,
                                                          status.startswith("204")), exc_info)

        return self.wsgi_app(environ, start)


def secured_headers(headers: Iterable[tuple[str, str]], secure: bool,
                    no_content: bool = False) -> list[tuple[str, str]]:
    """The response's headers with the security headers added (unless a view set its
    own) and every cookie made HttpOnly and SameSite, and Secure over HTTPS.

    A 204 (a phone's unchanged poll, every 2 seconds) has no body: nothing to render,
    frame or sniff, and it says "no-store", so nothing to cache either. It carries
    neither the document headers nor Vary: a few hundred bytes less on every poll.
    """
    out: list[tuple[str, str]] = []
    present = set()
    for name, value in headers:
        present.add(name.lower())
        if name.lower() == "set-cookie":
            value = secured_cookie(value, secure)
        elif no_content and name.lower() == "vary":
            continue
        out.append((name, value))
    if not no_content:
        out.extend((name, value) for name, value in SECURITY_HEADERS.items()
                   if name.lower() not in present)
    return out


# Cookie attributes werkzeug's dump_cookie writes itself, by their lowercase names.
_KNOWN = {"expires", "max-age", "path", "domain", "secure", "httponly", "samesite",
          "partitioned"}


def secured_cookie(header: str, secure: bool) -> str:
    """One Set-Cookie value, rewritten HttpOnly and SameSite=Lax (Strict is kept, being
    stricter), and Secure when ``secure`` (an existing Secure is never dropped)."""
    pair, *parts = header.split(";")
    cookie = parse_cookie(pair)
    if len(cookie) != 1:
        return header  # not a cookie browsers would accept either: leave it be
    ((key, value),) = cookie.items()
    attributes: dict[str, str | None] = {}
    unknown: list[str] = []
    for part in parts:
        name, has_value, attribute_value = part.strip().partition("=")
        if name.lower() in _KNOWN:
            attributes[name.lower()] = attribute_value.strip() if has_value else None
        elif part.strip():
            unknown.append(part.strip())
    same_site = (attributes.get("samesite") or "").capitalize()
    max_age = attributes.get("max-age")
    dumped = dump_cookie(
        key, value,
        max_age=int(max_age) if max_age and max_age.lstrip("-").isdigit() else None,
        expires=attributes.get("expires") or None,
        path=attributes.get("path") or None,
        domain=attributes.get("domain") or None,
        secure=secure or "secure" in attributes,
        httponly=True,
        sync_expires=False,
        samesite="Strict" if same_site == "Strict" else "Lax",
        partitioned="partitioned" in attributes,
    )
    return "; ".join([dumped, *unknown])
