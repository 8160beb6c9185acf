"""The built site reads at a laptop's width and a desktop's: every page, taken in Chromium at 1280
and at 1920 px, has no table, code block or picture wider than its column (measured in the page:
an element that scrolls, ``scrollWidth > clientWidth``, or whose right edge passes the article's),
no option name broken inside its code tag on the command reference, and no empty table header.

The site is built as ``mkdocs build`` builds it (the docs extra) into a temporary folder, and the
pages open from there (``use_directory_urls: false``). Chromium and chromedriver are Debian's, as
for the studio's browser test.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from readers import module

pytestmark = [pytest.mark.reader, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
WIDTHS = (1280, 1920)

# What overflows in a page, as a list of lines (empty: nothing does). An element overflows when
# it scrolls sideways (its content is wider than its box) or when its box passes the right edge
# of the article that holds it; a code element of the command reference that names an option
# must sit on one line; a table's header row must say something.
MEASURE = r"""
const article = document.querySelector("article") || document.querySelector("[role=main]") ||
                document.body;
const style = getComputedStyle(article);
const edge = article.getBoundingClientRect().right - parseFloat(style.paddingRight) -
             parseFloat(style.borderRightWidth);
const found = [];
const name = (el) => el.tagName.toLowerCase() + (typeof el.className === "string" &&
    el.className.trim() ? "." + el.className.trim().split(/\s+/).join(".") : "");
const text = (el) => (el.innerText || el.textContent || "").trim().replace(/\s+/g, " ")
    .slice(0, 60);
for (const el of article.querySelectorAll("*")) {
  if (el.closest("nav, .md-sidebar, .headerlink")) continue;
  const box = el.getBoundingClientRect();
  if (box.width === 0) continue;
  const clipped = ["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(el).overflowX);
  if (clipped && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
    found.push(`${name(el)} scrolls: ${el.scrollWidth} px in ${el.clientWidth} px: ${text(el)}`);
  if (el.matches("table, pre, img, svg, dl, p, li, h1, h2, h3, h4, h5, h6, code") &&
      box.right > edge + 1)
    found.push(`${name(el)} passes the column by ${Math.round(box.right - edge)} px: ${text(el)}`);
}
for (const row of article.querySelectorAll("thead tr")) {
  if (!text(row)) found.push(`an empty table header row above: ${text(row.closest("table"))}`);
}
if (location.pathname.endsWith("/commands.html")) {
  for (const code of article.querySelectorAll("code")) {
    if (/^--?[A-Za-z]/.test(code.textContent) && code.getClientRects().length > 1)
      found.push(`the option name ${code.textContent} is broken across lines`);
  }
}
return found;
"""


def _missing() -> str | None:
    for path in (CHROMIUM, DRIVER):
        if not os.path.exists(path):
            return f"{path} is missing: apt-get install chromium chromium-driver"
    return None


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    module("mkdocs", "mkdocs (the docs extra)")
    module("material", "mkdocs-material (the docs extra)")
    folder = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir",
                           str(folder)], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


@pytest.fixture(scope="module")
def browser():
    if _missing():
        if os.environ.get("CI") == "true":
            pytest.fail(f"the docs' browser test needs Chromium under CI: {_missing()}")
        pytest.skip(f"the docs' browser test needs Chromium: {_missing()}")
    module("selenium", "selenium (the test extra)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--hide-scrollbars",
                 f"--user-data-dir={tempfile.mkdtemp(prefix='blockmaze-chromium-')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def pages(site: Path) -> list[Path]:
    """Every page the site built from docs/ (not the search page or 404)."""
    return sorted(path for path in site.rglob("*.html")
                  if path.name not in ("404.html", "search.html") and "assets" not in path.parts)


def overflows(browser, page: Path, width: int) -> list[str]:
    """What overflows ``page`` in a window ``width`` px wide (see :data:`MEASURE`)."""
    browser.set_window_size(width, 1000)
    browser.get(page.as_uri())
    browser.execute_script("return document.fonts ? document.fonts.ready : null")
    return browser.execute_script(MEASURE)


@pytest.mark.parametrize("width", WIDTHS)
def test_no_table_or_code_block_overflows_its_column(site, browser, width):
    found = {}
    for page in pages(site):
        lines = overflows(browser, page, width)
        if lines:
            found[page.relative_to(site).as_posix()] = lines
    assert len(pages(site)) >= 15
    assert not found, f"at {width} px:\n" + "\n".join(
        f"{page}: {line}" for page, lines in found.items() for line in lines)


def test_the_measure_sees_an_overflow(site, browser, tmp_path):
    """The measure itself, on a page of the built site with a wide table and a long line added:
    it reports both (a measure that sees nothing would pass any site)."""
    page = site / "install.html"
    wide = tmp_path / "wide.html"
    long_line = "x" * 400
    row = "".join(f"<td><code>--option-number-{i}</code></td>" for i in range(30))
    wide.write_text(page.read_text(encoding="utf-8").replace(
        "</article>", f"<pre><code>{long_line}</code></pre><table><thead><tr><th></th></tr>"
                      f"</thead><tbody><tr>{row}</tr></tbody></table></article>", 1),
        encoding="utf-8")
    # the page's own links (stylesheets) stay relative to the site
    (site / wide.name).write_text(wide.read_text(encoding="utf-8"), encoding="utf-8")
    try:
        lines = overflows(browser, site / wide.name, 1280)
    finally:
        (site / wide.name).unlink()
    assert any("scrolls" in line and "x" * 20 in line for line in lines), lines
    assert any("table" in line and "option-number" in line for line in lines), lines
    assert any("empty table header" in line for line in lines), lines
