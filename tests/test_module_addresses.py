"""The phone's script is ES modules, each sent at an address with its fingerprint and kept
a year: a module's imports of the others must name those addresses too, or a phone would
ask for them anew on every page (and its service worker, which keeps only fingerprinted
files, would have none of them with no connection). A module's fingerprint is of the
module as sent, its imports' addresses included: a change deep down gives every module
above it a new address, so no phone runs a module with another version's imports.
"""
from __future__ import annotations

import os
import re

from flask import Flask, render_template_string

from scorekeeper.web import assets

ADDRESS = re.compile(r"""\b(?:from|import)\s*\(?\s*["'](\./[\w-]+\.js[^"']*)["']""")


def addresses(body: bytes) -> list[str]:
    return ADDRESS.findall(body.decode("utf-8"))


def static_app(folder) -> Flask:
    app = Flask(__name__, static_folder=str(folder), static_url_path="/static")
    assets.init_app(app)
    return app


def url(app: Flask, filename: str) -> str:
    with app.test_request_context():
        return render_template_string("{{ url_for('static', filename=name) }}", name=filename)


def test_each_module_imports_the_others_at_their_fingerprinted_addresses(app):
    client = app.test_client()
    page = client.get("/rules").text
    for name in ("app.js", "offline.js", "page.js", "kept.js", "rules.js", "share.js"):
        body = client.get(url(app, name)).data
        for address in addresses(body):
            imported = address.split("?")[0][2:]
            assert url(app, imported).endswith(address[2:]), (name, address)
            assert re.search(r"\?v=[0-9a-f]{12}$", address), (name, address)
    assert addresses(client.get(url(app, "app.js")).data), "app.js imports the others"
    # The page asks at once for every module app.js needs to start, not one after another.
    for name in ("page.js", "kept.js"):
        assert f'<link rel="modulepreload" href="{url(app, name)}">' in page
    assert "offline.js" not in page and "rules.js" not in page  # only once a game is up


def test_a_change_to_a_module_gives_the_modules_importing_it_new_addresses(tmp_path):
    (tmp_path / "top.js").write_text('import {b} from "./middle.js";\nexport const a = b;\n')
    (tmp_path / "middle.js").write_text('export const b = () => import("./deep.js");\n')
    (tmp_path / "deep.js").write_text("export const c = 1;\n")
    (tmp_path / "apart.js").write_text("export const d = 1;\n")
    app = static_app(tmp_path)
    client = app.test_client()
    before = {name: url(app, name) for name in ("top.js", "middle.js", "deep.js", "apart.js")}
    assert addresses(client.get(before["top.js"]).data) == [before["middle.js"].replace(
        "/static/", "./")]
    assert addresses(client.get(before["middle.js"]).data) == [before["deep.js"].replace(
        "/static/", "./")]
    with app.test_request_context():
        assert render_template_string("{{ static_imports('top.js')|join(' ') }}") == "middle.js"

    (tmp_path / "deep.js").write_text("export const c = 2;\n")
    os.utime(tmp_path / "deep.js", (1, 1))
    after = {name: url(app, name) for name in before}
    assert [name for name in before if after[name] != before[name]] == [
        "top.js", "middle.js", "deep.js"]
    sent = client.get(after["top.js"])
    assert sent.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert addresses(sent.data) == [after["middle.js"].replace("/static/", "./")]
