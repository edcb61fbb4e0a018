"""Security headers on every response, and cookies no script or other site can use."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask import after_this_request

from scorekeeper import create_app
from scorekeeper.web.security import secured_cookie
from tests.databases import database_url
from tests.views.view_helpers import parse
from scorekeeper.web.allow import Allow, allow

ROOT = Path(__file__).resolve().parent.parent

POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "object-src": ["'none'"],
}


def policy(response) -> dict[str, list[str]]:
    directives = [d.split() for d in response.headers["Content-Security-Policy"].split(";")]
    return {d[0]: d[1:] for d in directives if d}


def assert_secured(response) -> None:
    assert policy(response) == POLICY
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    for name in ("Content-Security-Policy", "Referrer-Policy", "X-Content-Type-Options",
                 "X-Frame-Options"):
        assert len(response.headers.getlist(name)) == 1, name


class Tags:
    """Every start tag of a page with its attributes, in order (parsed by lxml)."""

    def __init__(self, html: str) -> None:
        self.tags: list[tuple[str, dict[str, str]]] = [
            (element.tag, element.attrs) for element in parse(html).iter()]

    def named(self, tag: str) -> list[dict[str, str]]:
        return [attrs for name, attrs in self.tags if name == tag]


def cookie_attributes(header: str) -> dict[str, str | None]:
    """A Set-Cookie value's attributes by lowercase name (valueless ones map to None)."""
    attributes = {}
    for part in header.split(";")[1:]:
        name, has_value, value = part.strip().partition("=")
        attributes[name.lower()] = value if has_value else None
    return attributes


def set_cookies(response) -> dict[str, dict[str, str | None]]:
    return {header.split("=", 1)[0]: cookie_attributes(header)
            for header in response.headers.getlist("Set-Cookie")}


# --- headers -----------------------------------------------------------------------

def test_a_page_has_every_security_header(client):
    response = client.get("/games/new")
    assert response.status_code == 200
    assert response.text.lstrip().lower().startswith("<!doctype html>")
    assert_secured(response)


def test_an_htmx_fragment_has_them_too(client):
    response = client.get("/games/new", headers={"HX-Request": "true",
                                                 "HX-Target": "teams-preview"})
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="teams-preview"')  # a fragment
    assert_secured(response)


def test_an_error_page_has_them_too(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert "There is no such page here" in response.text
    assert_secured(response)


@pytest.mark.parametrize("path", ["app.css", "app.js", "favicon.svg",
                                  "vendor/htmx-2.0.11.min.js"])
def test_a_static_file_has_them_too(client, path):
    response = client.get(f"/static/{path}")
    assert response.status_code == 200
    assert_secured(response)


def test_a_header_a_view_sets_itself_is_kept(app, client):
    @app.get("/own-policy")
    @allow(Allow.PUBLIC)
    def own_policy():
        return "x", {"Referrer-Policy": "same-origin"}

    response = client.get("/own-policy")
    assert response.headers.getlist("Referrer-Policy") == ["same-origin"]
    assert response.headers["X-Frame-Options"] == "DENY"


# --- no inline script or style for the policy to refuse ----------------------------

INLINE = {
    "an inline <script>": re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I),
    "a <style> element": re.compile(r"<style[\s>]", re.I),
    "a style attribute": re.compile(r"\sstyle\s*=", re.I),
    "an inline event handler": re.compile(r"\son[a-z]+\s*=", re.I),
    "an hx-on attribute": re.compile(r"(hx|data-hx)-on", re.I),
    "a javascript: URL": re.compile(r"javascript:", re.I),
}


@pytest.mark.parametrize("template", sorted(p.name for p in (ROOT / "templates").glob("*.html")))
def test_no_template_needs_unsafe_inline(template):
    text = (ROOT / "templates" / template).read_text()
    found = [what for what, pattern in INLINE.items() if pattern.search(text)]
    assert not found, f"{template} has {', '.join(found)}"


def test_a_rendered_page_has_no_inline_script_or_style(client):
    page = Tags(client.get("/games/new").text)
    scripts = page.named("script")
    assert scripts and all(script.get("src") for script in scripts)
    assert not page.named("style")
    assert not [tag for tag, attrs in page.tags if "style" in attrs]
    assert not [tag for tag, attrs in page.tags
                if any(name.startswith(("on", "hx-on")) for name in attrs)]


def test_htmx_is_told_not_to_inject_styles_or_eval(client):
    page = Tags(client.get("/games/new").text)
    (meta,) = [m for m in page.named("meta") if m.get("name") == "htmx-config"]
    config = json.loads(meta["content"])
    assert config["includeIndicatorStyles"] is False
    assert config["allowEval"] is False
    # The names are the ones this htmx reads (a misspelt key would be silently ignored).
    htmx = (ROOT / "static" / "vendor" / "htmx-2.0.11.min.js").read_text()
    for key in config:
        assert f"{key}:" in htmx, key


# --- cookies -----------------------------------------------------------------------

def test_the_session_cookie_over_http_is_httponly_and_lax_but_not_secure(client):
    cookie = set_cookies(client.get("/games/new"))["session"]
    assert "httponly" in cookie
    assert cookie["samesite"] == "Lax"
    assert "secure" not in cookie
    assert "expires" in cookie  # the rewrite keeps the cookie's other attributes


def test_the_session_cookie_over_https_is_secure(client):
    response = client.get("/games/new", base_url="https://localhost")
    assert response.status_code == 200
    cookie = set_cookies(response)["session"]
    assert "secure" in cookie and "httponly" in cookie and cookie["samesite"] == "Lax"
    assert_secured(response)


@pytest.mark.parametrize("base_url, secure", [("http://localhost", False),
                                              ("https://localhost", True)])
def test_cookies_set_by_any_later_code_are_fixed_too(app, base_url, secure):
    @app.get("/cookies")
    @allow(Allow.PUBLIC)
    def cookie_route():
        @after_this_request
        def late(response):
            response.headers.add("Set-Cookie", "raw=1; Path=/; SameSite=None")
            return response

        response = app.make_response("ok")
        response.set_cookie("plain", "a b;c")  # no flags at all, a value that needs quoting
        response.set_cookie("strict", "1", samesite="Strict", max_age=60)
        return response

    @app.after_request
    def hook(response):
        response.set_cookie("hooked", "1", httponly=False, samesite=None)
        return response

    response = app.test_client().get("/cookies", base_url=base_url)
    cookies = set_cookies(response)
    assert {"plain", "strict", "raw", "hooked", "session"} <= cookies.keys()
    for name, attributes in cookies.items():
        assert "httponly" in attributes, name
        assert attributes["samesite"] == ("Strict" if name == "strict" else "Lax"), name
        assert ("secure" in attributes) is secure, name
    assert cookies["strict"]["max-age"] == "60"
    assert cookies["raw"]["path"] == "/"
    # The value still reads back the same.
    (plain,) = [h for h in response.headers.getlist("Set-Cookie") if h.startswith("plain=")]
    assert plain.startswith('plain="a b\\073c";')


def test_a_cookie_rewrite_keeps_what_it_does_not_know_and_never_drops_secure():
    rewritten = secured_cookie("id=7; Secure; Priority=High; Domain=example.com", secure=False)
    attributes = cookie_attributes(rewritten)
    assert rewritten.startswith("id=7;")
    assert "secure" in attributes and "httponly" in attributes
    assert attributes["priority"] == "High"
    assert attributes["domain"] == "example.com"
    assert attributes["samesite"] == "Lax"


# --- behind a proxy ----------------------------------------------------------------

def proxied_app(monkeypatch, env: str | None, **config):
    if env is None:
        monkeypatch.delenv("SCOREKEEPER_BEHIND_PROXY", raising=False)
    else:
        monkeypatch.setenv("SCOREKEEPER_BEHIND_PROXY", env)
    return create_app({"TESTING": True, "DATABASE_URL": database_url(), "SECRET_KEY": "proxy",
                       **config})


def session_cookie_via_proxy(app) -> dict[str, str | None]:
    response = app.test_client().get("/no/such/page", headers={"X-Forwarded-Proto": "https"})
    assert response.status_code == 404
    return set_cookies(response)["session"]


@pytest.mark.parametrize("env, config", [("1", {}), (None, {"PROXY_FIX": True})])
def test_behind_a_proxy_its_https_makes_cookies_secure(monkeypatch, env, config):
    app = proxied_app(monkeypatch, env, **config)
    assert "secure" in session_cookie_via_proxy(app)


@pytest.mark.parametrize("env, config", [(None, {}), ("1", {"PROXY_FIX": False})])
def test_without_a_proxy_forwarded_headers_are_not_believed(monkeypatch, env, config):
    app = proxied_app(monkeypatch, env, **config)
    assert "secure" not in session_cookie_via_proxy(app)
