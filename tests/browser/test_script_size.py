"""Telugu and Lao pages read as large as English ones at the same setting.

What is compared is the main body of a script's letters, as Chromium draws the rules page at
360 px: in each printed line, the band of rows that hold at least half as much ink as its
fullest row. For Latin that is the x-height (the eye judges a Latin text's size by it, not
by its capitals or ascenders); for Telugu the body of the letters, under the talakattu
head-strokes and the vowel signs and above the conjuncts below; for Lao the letters between
the tone marks and vowels above and below them. Those strokes are thin and few, so they
stay out of the band. Every line of the page's paragraphs and lists is measured, at 8 device
pixels to the CSS pixel; a page's size is the median of its lines.

Drawn with the system's fonts (the README's `fonts-noto-core`): Noto Sans for Latin, Noto
Sans Telugu, and DejaVu Sans for Lao (fontconfig's choice for Lao: the stylesheet names no
Lao font). Without the stylesheet's Telugu face (Noto Sans Telugu, size-adjust 108%), Telugu's
body is 0.92 of Latin's x-height; Lao's is 1.04 as it is.
"""
from __future__ import annotations

import base64
import statistics

import pytest
from playwright.sync_api import Page

from tests.browser.phones import TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.drawn]

TOLERANCE = 0.05  # a script's body within 5% of Latin's x-height
SCALE = 8  # device pixels per CSS pixel: a 0.5 em body is 72 px tall at 18 px

# The printed lines of a section's paragraphs (not the row of boxed cards), relative to it.
LINES_JS = """
section => {
  const box = section.getBoundingClientRect();
  return [...section.querySelectorAll('p:not(.trump-order), li')].flatMap(text => {
    const range = document.createRange();
    range.selectNodeContents(text);
    return [...range.getClientRects()].filter(line => line.width > 40).map(line => ({
      x: line.left - box.left, y: line.top - box.top, width: line.width, height: line.height}));
  });
}
"""

# For each line: the dark pixels in each of its rows (ink #111 on white, from half dark).
INK_ROWS_JS = """
async ([png, lines, scale]) => {
  const bytes = Uint8Array.from(atob(png), c => c.charCodeAt(0));
  const image = await createImageBitmap(new Blob([bytes], {type: 'image/png'}));
  const canvas = new OffscreenCanvas(image.width, image.height);
  const context = canvas.getContext('2d', {willReadFrequently: true});
  context.drawImage(image, 0, 0);
  return lines.map(line => {
    const [x, y] = [Math.round(line.x * scale), Math.round(line.y * scale)];
    const width = Math.min(Math.round(line.width * scale), image.width - x);
    const height = Math.min(Math.round(line.height * scale), image.height - y);
    const data = context.getImageData(x, y, width, height).data;
    const rows = [];
    for (let row = 0; row < height; row++) {
      let dark = 0;
      for (let i = row * width * 4; i < (row + 1) * width * 4; i += 4) {
        if (data[i] + data[i + 1] + data[i + 2] < 384) dark++;
      }
      rows.push(dark);
    }
    return rows;
  });
}
"""


def body_height(rows: list[int]) -> int:
    """The band of a line's rows that hold at least half the ink of its fullest row."""
    fullest = max(rows)
    dense = [y for y, dark in enumerate(rows) if 2 * dark >= fullest]
    return dense[-1] - dense[0] + 1


def body_size(browser, server: str, language: str) -> float:
    """The median body height, in CSS px, of the rules page's lines in that language."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True, device_scale_factor=SCALE)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_cookies([{"name": "lang", "value": language, "url": server}])
    try:
        page: Page = context.new_page()
        page.goto(f"{server}/rules")
        assert page.evaluate("document.documentElement.lang") == language
        page.evaluate("document.fonts.ready.then(() => true)")
        heights = []
        for section in page.locator("main section").all():
            png = base64.b64encode(section.screenshot()).decode()
            lines = section.evaluate(LINES_JS)
            heights += [body_height(rows)
                        for rows in page.evaluate(INK_ROWS_JS, [png, lines, SCALE])]
        assert len(heights) >= 30, heights
        return statistics.median(heights) / SCALE
    finally:
        context.close()


def test_telugu_and_lao_read_as_large_as_latin(browser, live_server: str) -> None:
    latin = body_size(browser, live_server, "en")
    assert 0.5 * 18 <= latin <= 0.56 * 18  # Latin's x-height, at the 18 px of the page
    ratios = {language: round(body_size(browser, live_server, language) / latin, 3)
              for language in ("te", "lo")}
    assert all(abs(ratio - 1) <= TOLERANCE for ratio in ratios.values()), ratios
