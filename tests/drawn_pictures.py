"""A picture of the app's (SVG) measured as it is drawn: resvg draws it, as it does the
PNG a chat app is sent, and Pillow reads where its ink is. Only text is measured here:
bars and grounds are where their rectangles say."""
from __future__ import annotations

import io
from dataclasses import dataclass

import lxml.etree
import resvg_py
from PIL import Image

from scorekeeper.figures.pictures import text_width

SVG = "{http://www.w3.org/2000/svg}"


def svg_root(data: bytes):
    return lxml.etree.fromstring(data)


@dataclass(frozen=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box) -> bool:
        return (self.left < other.right and other.left < self.right
                and self.top < other.bottom and other.top < self.bottom)


def texts(root) -> list:
    return root.findall(f"{SVG}text")


def content(text) -> str:
    return "".join(text.itertext())


def size(text) -> float:
    return float(text.get("font-size"))


def reckoned(text) -> tuple[float, float]:
    """Where the text reaches, left and right, by the app's own reckoning of its width
    (``pictures.text_width``), the strong part of a moment's line in bold."""
    bold = text.get("font-weight") == "700"
    width = sum(text_width("".join(part.itertext()), size(text),
                           bold or part.get("font-weight") == "700")
                for part in text.findall(f"{SVG}tspan"))
    x = float(text.get("x"))
    anchor = text.get("text-anchor", "start")
    left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
    return left, left + width


def drawn(root, *elements, top: float = 0, height: float | None = None) -> Image.Image:
    """Only ``elements`` drawn, on nothing (transparent), in the picture's band from
    ``top`` down ``height`` px (the whole picture by default)."""
    width = float(root.get("width"))
    height = float(root.get("height")) - top if height is None else height
    inner = "".join(lxml.etree.tostring(element, encoding="unicode") for element in elements)
    svg = (f'<svg xmlns="{SVG[1:-1]}" viewBox="0 {top} {width} {height}" width="{width}" '
           f'height="{height}" font-family="{root.get("font-family")}">{inner}</svg>')
    return Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_string=svg)))).convert("RGBA")


def ink(root, text) -> Box | None:
    """Where a text's ink is, drawn alone (its line and the lines around it drawn only,
    for speed)."""
    top = max(0.0, float(text.get("y")) - 2.5 * size(text))
    found = drawn(root, text, top=top, height=4 * size(text)).getbbox()
    return None if found is None else Box(found[0], found[1] + top, found[2], found[3] + top)


def ink_in_columns(root, left: float, right: float) -> bool:
    """Whether any text of the picture has ink between x = ``left`` and ``right``."""
    picture = drawn(root, *texts(root))
    return picture.crop((int(left), 0, int(right), picture.height)).getbbox() is not None
