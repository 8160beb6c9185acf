"""The studio page in a real browser: Debian's Chromium driven by Selenium through Debian's
chromium-driver (nothing downloads a browser or a driver).

Without Chromium these tests skip saying how to install it; under CI=true they fail.
``BLOCKMAZE_UPDATE_SAMPLES=1`` also writes the page's screenshot to samples/studio.png.
"""

from __future__ import annotations

import base64
import io
import os
import shutil
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlparse

import pytest

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
INSTALL = "apt-get install chromium chromium-driver, and pip install '.[test]' (selenium, starlette, uvicorn)"


def _missing() -> str | None:
    try:
        import selenium  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as error:
        return f"{error.name} is not installed: {INSTALL}"
    for path in (CHROMIUM, DRIVER):
        if not os.path.exists(path):
            return f"{path} is missing: {INSTALL}"
    return None


if _missing():
    if os.environ.get("CI") == "true":
        pytest.fail(f"the browser tests need Chromium under CI: {_missing()}", pytrace=False)
    pytest.skip(f"the browser tests need Chromium: {_missing()}", allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from blockmaze.cli import main  # noqa: E402
from studio_server import running_studio  # noqa: E402

pytestmark = [pytest.mark.reader, pytest.mark.slow]

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def chromium(downloads: str, width: int = 1280, height: int = 860):
    """A headless Chromium with a fresh profile, software WebGL, and downloads into ``downloads``."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--use-angle=swiftshader",
                 "--enable-unsafe-swiftshader", f"--window-size={width},{height}",
                 f"--user-data-dir={tempfile.mkdtemp(prefix='blockmaze-chromium-')}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.add_experimental_option("prefs", {"download.default_directory": downloads,
                                              "download.prompt_for_download": False})
    return webdriver.Chrome(service=Service(DRIVER), options=options)


@pytest.fixture(scope="module")
def studio():
    with running_studio() as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    downloads = str(tmp_path_factory.mktemp("downloads"))
    driver = chromium(downloads)
    driver.downloads = downloads
    yield driver
    driver.quit()


def wait_for(driver, script: str, timeout: float = 120):
    """Wait until the page's ``script`` (a JS expression) is truthy; return its value."""
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: d.execute_script(f"return {script}"))


def console_errors(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def open_page(driver, url: str) -> None:
    driver.get(url)
    wait_for(driver, "window.studio && studio.settled && studio.pictures > 0 && studio.renders > 0")


def canvas_pixels(driver):
    """The 3-D canvas as an RGB picture."""
    from PIL import Image

    data = driver.execute_script(
        "return document.querySelector('#three canvas').toDataURL('image/png')")
    return Image.open(io.BytesIO(base64.b64decode(data.split(",", 1)[1]))).convert("RGB")


def test_the_page_loads_without_console_errors_and_shows_every_view(browser, studio):
    open_page(browser, f"{studio}/?size=12x16&seed=4")
    assert console_errors(browser) == []
    assert browser.find_element(By.ID, "picture").get_attribute("naturalWidth") != "0"
    links = browser.find_elements(By.CSS_SELECTOR, "#download-buttons a")
    assert {"schem", "glb", "png", "tmx", "maze"} <= {a.get_attribute("data-format") for a in links}


def test_the_3d_canvas_renders_our_glb(browser, studio):
    open_page(browser, f"{studio}/?size=10x10&seed=2&roof=0")
    picture = canvas_pixels(browser)
    colours = picture.getcolors(1 << 20)
    background = max(colours)[1]
    lit = sum(count for count, colour in colours if colour != background)
    assert lit > 0.05 * picture.width * picture.height, "the maze covers too little of the canvas"
    assert len(colours) > 20  # shaded faces, not one flat colour


def test_generating_updates_the_picture_and_the_url(browser, studio):
    open_page(browser, f"{studio}/?size=8x8&seed=1")
    before = browser.execute_script("return [studio.pictures, document.getElementById('picture').src]")
    size = browser.find_element(By.ID, "size")
    size.clear()
    size.send_keys("9x14")
    browser.find_element(By.ID, "make").click()
    wait_for(browser, f"studio.pictures > {before[0]}")
    after = browser.execute_script("return document.getElementById('picture').src")
    assert after != before[1]
    width = browser.execute_script("return document.getElementById('picture').naturalWidth")
    height = browser.execute_script("return document.getElementById('picture').naturalHeight")
    assert width > height  # 14 columns, 9 rows
    assert dict(parse_qsl(urlparse(browser.current_url).query))["size"] == "9x14"
    assert console_errors(browser) == []


def test_the_carve_animation_advances(browser, studio):
    open_page(browser, f"{studio}/?size=30x30&seed=3&algorithm=wilson")
    wait_for(browser, "studio.carve.shown >= studio.carve.total")  # it plays through
    browser.execute_script("document.getElementById('speed').value = 5")  # half a step a frame
    play = browser.find_element(By.ID, "play")
    play.click()  # pause
    play.click()  # play: a finished carve starts again
    first = browser.execute_script("return studio.carve.shown")
    assert first < 100
    wait_for(browser, f"studio.carve.shown > {first} + 5", timeout=60)
    play.click()  # pause: it stops
    paused = browser.execute_script("return studio.carve.shown")
    time.sleep(0.5)
    assert browser.execute_script("return studio.carve.shown") == paused
    assert browser.execute_script("return studio.carve.total") == 30 * 30 - 1


def test_a_download_is_the_commands_file(browser, studio, tmp_path):
    open_page(browser, f"{studio}/?size=11x13&seed=8&roof=1&theme=hedge")
    for name in os.listdir(browser.downloads):
        os.remove(os.path.join(browser.downloads, name))
    browser.find_element(By.CSS_SELECTOR, "#download-buttons a[data-format=schem]").click()
    target = Path(browser.downloads, "maze.schem")
    deadline = time.monotonic() + 30
    while not target.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert target.exists(), os.listdir(browser.downloads)
    expected = tmp_path / "m.schem"
    assert main(["-q", "generate", "11x13", "--seed", "8", "--roof", "--theme", "hedge",
                 "-o", str(expected)]) == 0
    assert target.read_bytes() == expected.read_bytes()


@pytest.mark.parametrize("query", ["command=dungeon&size=30x40&seed=2&style=caves",
                                   "command=blockwise&size=21x31&seed=5",
                                   "size=6&grid=polar&seed=3", "size=2x6x6&grid=layered&seed=1"])
def test_every_command_and_grid_kind_shows_without_errors(browser, studio, query):
    open_page(browser, f"{studio}/?{query}")
    assert browser.find_element(By.ID, "status").get_attribute("class") != "error"
    assert console_errors(browser) == []
    links = {a.get_attribute("data-format")
             for a in browser.find_elements(By.CSS_SELECTOR, "#download-buttons a")}
    assert ("png" in links) == ("command=" not in query)  # pictures draw graph mazes only


def test_a_bad_option_shows_the_commands_message(browser, studio):
    open_page(browser, f"{studio}/?size=8x8&seed=1")
    browser.execute_script("""const grid = document.getElementById('opt-grid');
        grid.value = 'hex'; document.getElementById('opt-algorithm').value = 'sidewinder';
        grid.dispatchEvent(new Event('change'));""")
    wait_for(browser, "document.getElementById('status').className === 'error'", timeout=30)
    assert browser.find_element(By.ID, "status").text == "sidewinder needs a grid of kind square, not hex"
    browser.get_log("browser")  # (the refused requests are logged; start the next test clean)


def shown_picture(driver) -> list[int]:
    """The bytes of the picture the page shows."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(document.getElementById('picture').src).then(r => r.arrayBuffer())"
        ".then(b => done(Array.from(new Uint8Array(b))))")


def test_a_shared_link_brings_back_the_same_maze(browser, studio):
    open_page(browser, f"{studio}/?size=6x7&algorithm=kruskal")  # no seed: the page draws one
    shared = browser.current_url
    assert "seed=" in shared and "algorithm=kruskal" in shared
    first = shown_picture(browser)
    open_page(browser, f"{studio}/?size=6x7&algorithm=kruskal")  # another seed, another maze
    assert shown_picture(browser) != first
    open_page(browser, shared)
    assert shown_picture(browser) == first


def test_screenshot_for_the_readme(browser, studio, tmp_path):
    """The README's picture of the page, taken here (written to samples/ on request)."""
    from PIL import Image

    browser.set_window_size(1720, 860)  # the three views side by side
    open_page(browser, f"{studio}/?size=16x24&seed=7&algorithm=growing-tree:0.25&solution=1&roof=0")
    wait_for(browser, "studio.carve.shown >= studio.carve.total", timeout=30)
    shot = tmp_path / "studio.png"
    browser.save_screenshot(str(shot))
    picture = Image.open(shot)
    assert picture.width >= 1000
    small = picture.convert("RGB").resize((picture.width // 2, picture.height // 2), Image.LANCZOS)
    small = small.quantize(128)
    small.save(shot, optimize=True)
    if os.environ.get("BLOCKMAZE_UPDATE_SAMPLES") == "1":
        shutil.copy(shot, SAMPLES / "studio.png")
    browser.set_window_size(1280, 860)
