"""The studio page in a real browser: Debian's Chromium driven by Selenium through Debian's
chromium-driver (nothing downloads a browser or a driver).

Without Chromium these tests skip saying how to install it; under CI=true they fail.
``BLOCKMAZE_UPDATE_SAMPLES=1`` also writes the page's screenshot to samples/studio.png and the
reference screenshots at three widths to tests/data/studio/ (compared loosely: fonts differ).
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
REFERENCES = Path(__file__).resolve().parent / "data" / "studio"
UPDATE = os.environ.get("BLOCKMAZE_UPDATE_SAMPLES") == "1"


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


def open_page(driver, url: str, ok: bool = True) -> None:
    driver.get(url)
    if ok:
        wait_for(driver, "window.studio && studio.settled && studio.pictures > 0 && studio.renders > 0")
    else:
        wait_for(driver, "window.studio && studio.settled")


# every level of the page's result: the picture's pixel variance and the 3-D view's share of
# pixels that are not its background, each level cut in 3-D at its top
LEVELS = """
const variance = (source) => {
  const copy = document.createElement('canvas');
  copy.width = source.width; copy.height = source.height;
  const ctx = copy.getContext('2d');
  ctx.drawImage(source, 0, 0);
  const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
  let sum = 0, squares = 0, counts = new Map(), n = data.length / 4;
  for (let i = 0; i < data.length; i += 4) {
    const v = (data[i] + data[i + 1] + data[i + 2]) / 3;
    sum += v; squares += v * v;
    const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return [squares / n - (sum / n) ** 2, 1 - Math.max(...counts.values()) / n];
};
const picker = document.getElementById('level'), cut = document.getElementById('cut');
const report = [];
cut.checked = studio.levels.count > 1;
for (let i = 0; i < studio.levels.count; i++) {
  picker.value = String(i);
  picker.dispatchEvent(new Event('change'));
  const [picture] = variance(document.getElementById('picture'));
  const [, lit] = variance(document.querySelector('#three canvas'));
  report.push([picture, lit, studio.shown.levels[i].open !== false]);
}
return report;
"""


def shown_problems(driver) -> list[str]:
    """The one-line problems the views show, and a broken image's count (there are no images)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('.problem')].filter(p => !p.hidden)"
        ".map(p => p.textContent).concat([...document.images].filter(i => i.complete"
        " && !i.naturalWidth).map(i => 'broken image ' + i.src))")


def canvas_pixels(driver):
    """The 3-D canvas as an RGB picture."""
    from PIL import Image

    data = driver.execute_script(
        "return document.querySelector('#three canvas').toDataURL('image/png')")
    return Image.open(io.BytesIO(base64.b64decode(data.split(",", 1)[1]))).convert("RGB")



# (query, levels): every command and grid kind, and each kind of result with several levels
KINDS = [("size=12x16&seed=4", 1), ("size=6&grid=polar&seed=3", 1), ("size=6x7&grid=hex&seed=2", 1),
         ("size=6x8&grid=triangle&seed=2", 1), ("size=5x6&grid=upsilon&seed=2", 1),
         ("size=7x7&grid=weave&seed=2&weave=0.3", 1), ("size=2x6x6&grid=layered&seed=1", 2),
         ("command=dungeon&size=30x40&seed=2&style=caves", 1),
         ("command=dungeon&size=14x16&seed=2&levels=2", 2),
         ("command=blockwise&size=21x31&seed=5", 1), ("command=blockwise&size=9x21x21&seed=5", 9),
         ("size=&grid=labyrinth&circuits=7", 1)]  # sized by its design: drawn, not carved


@pytest.mark.parametrize("query, levels", KINDS, ids=[q for q, _ in KINDS])
def test_every_command_grid_and_level_is_shown_as_a_picture_and_in_3d(browser, studio, query, levels):
    open_page(browser, f"{studio}/?{query}")
    assert browser.find_element(By.ID, "status").get_attribute("class") != "error"
    assert console_errors(browser) == []
    assert shown_problems(browser) == []
    assert browser.execute_script("return studio.levels.count") == levels
    assert browser.find_element(By.ID, "level").is_displayed() == (levels > 1)
    # the carve is replayed for carved mazes only; no panel stays up for the others
    assert browser.find_element(By.ID, "carve-view").is_displayed() == (
        "command=" not in query and "labyrinth" not in query)
    for level, (variance, lit, open_) in enumerate(browser.execute_script(LEVELS), 1):
        # (a 3-D blockwise maze's lowest and highest layers are whole: one colour, rightly)
        assert variance > 50 or not open_, f"level {level}'s picture is blank"
        assert lit > 0.03, f"level {level} is not in the 3-D view"
    links = {a.get_attribute("data-format")
             for a in browser.find_elements(By.CSS_SELECTOR, "#download-buttons a")}
    # pictures draw graph mazes and dungeons (not a blockwise maze)
    assert ("png" in links) == ("command=" not in query or "command=dungeon" in query)
    assert "mtl" not in links
    assert ("tilemap" in links) == ("x21x21" not in query)  # a 3-D blockwise maze has no plan
    offered = set(browser.execute_script(
        "return [...document.querySelectorAll('#options [data-flag]')]"
        ".filter(e => !e.closest('[hidden]')).map(e => e.dataset.flag)"))
    if "blockwise" in query:  # a 3-D maze is a volume already: nothing to stand up (lights apply)
        assert ("height" in offered) == ("x21x21" not in query) == ("roof" in offered), offered


def test_the_page_loads_without_console_errors_and_shows_every_view(browser, studio):
    open_page(browser, f"{studio}/?size=12x16&seed=4")
    assert console_errors(browser) == []
    links = browser.find_elements(By.CSS_SELECTOR, "#download-buttons a")
    assert {"schem", "glb", "png", "tmx", "maze"} <= {a.get_attribute("data-format") for a in links}
    # the form holds only what applies: a png takes no block options, a square grid no scale
    visible = {e.get_attribute("data-flag") for e in browser.find_elements(By.CSS_SELECTOR, "#options [data-flag]")
               if e.is_displayed()}
    assert {"grid", "algorithm", "seed", "picture-style"} <= visible
    assert not visible & {"height", "roof", "wall", "scale", "mc-version", "animate", "text-style"}
    Select = __import__("selenium.webdriver.support.ui", fromlist=["Select"]).Select
    Select(browser.find_element(By.ID, "format")).select_by_value("schem")
    browser.find_element(By.CSS_SELECTOR, "summary").click()
    visible = {e.get_attribute("data-flag") for e in browser.find_elements(By.CSS_SELECTOR, "#options [data-flag]")
               if e.is_displayed()}
    assert {"height", "roof", "wall", "passage", "mc-version", "schem-version"} <= visible
    assert not visible & {"picture-style", "cell-size", "scale", "bridges", "block-size"}
    assert "format=schem" in browser.current_url


def test_the_first_paint_does_not_wait_for_the_server(browser, studio):
    browser.get(f"{studio}/?size=8x8&seed=1")
    wait_for(browser, "window.studio && studio.formReadyMs !== null")
    paint = browser.execute_script(
        "return performance.getEntriesByType('paint').find(p => p.name === 'first-contentful-paint').startTime")
    assert paint < 1000
    wait_for(browser, "studio.settled")


def test_every_control_has_a_label_and_the_keyboard_reaches_it(browser, studio):
    open_page(browser, f"{studio}/?size=8x8&seed=1")
    unlabelled = browser.execute_script(
        "return [...document.querySelectorAll('input, select')].filter(e => e.offsetParent"
        " && !(e.labels && e.labels.length) && !e.getAttribute('aria-label')).map(e => e.id)")
    assert unlabelled == []
    from selenium.webdriver.common.keys import Keys

    browser.find_element(By.ID, "command").click()
    browser.find_element(By.ID, "command").send_keys(Keys.ESCAPE)
    order = []
    for _ in range(6):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        order.append(browser.switch_to.active_element.get_attribute("id"))
    assert order[:4] == ["size", "make", "share", "format"]


def test_the_3d_canvas_renders_our_glb(browser, studio):
    open_page(browser, f"{studio}/?size=10x10&seed=2&roof=0")
    picture = canvas_pixels(browser)
    colours = picture.getcolors(1 << 20)
    background = max(colours)[1]
    lit = sum(count for count, colour in colours if colour != background)
    assert lit > 0.05 * picture.width * picture.height, "the maze covers too little of the canvas"
    assert len(colours) > 20  # shaded faces, not one flat colour
    # framed: the whole build is in view, touching no edge of the canvas
    edges = [picture.getpixel((x, y)) for x in range(picture.width) for y in (0, picture.height - 1)]
    edges += [picture.getpixel((x, y)) for y in range(picture.height) for x in (0, picture.width - 1)]
    assert sum(colour != background for colour in edges) < 0.02 * len(edges)


def test_generating_updates_the_picture_and_the_url(browser, studio):
    open_page(browser, f"{studio}/?size=8x8&seed=1")
    before = browser.execute_script("return [studio.pictures, studio.pictureUrl]")
    size = browser.find_element(By.ID, "size")
    size.clear()
    size.send_keys("9x14")
    browser.find_element(By.ID, "make").click()
    wait_for(browser, f"studio.pictures > {before[0]} && studio.settled")
    assert browser.execute_script("return studio.pictureUrl") != before[1]
    width, height = browser.execute_script(
        "const c = document.getElementById('picture'); return [c.width, c.height]")
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


def test_the_solver_walks_after_the_carve(browser, studio):
    open_page(browser, f"{studio}/?size=12x12&seed=3&solve=tremaux")
    wait_for(browser, "studio.carve.shown >= studio.carve.total")
    wait_for(browser, "studio.solved && studio.solved.shown >= studio.solved.total")
    assert "tremaux" in browser.find_element(By.ID, "step").text
    assert console_errors(browser) == []


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# (page, format, the command's arguments, the output's name, the download's name: its command,
# grid, size and seed): one file, and files with companions
DOWNLOADS = [
    ("size=11x13&seed=8&roof=1&theme=hedge", "schem",
     ["generate", "11x13", "--seed", "8", "--roof", "--theme", "hedge"], "maze.schem",
     "generate-11x13-seed8.schem"),
    ("size=7x8&seed=3", "obj", ["generate", "7x8", "--seed", "3"], "maze.obj",
     "generate-7x8-seed3.zip"),
    ("size=7x8&seed=3&grid=hex", "png", ["generate", "7x8", "-g", "hex", "--seed", "3"], "maze.png",
     "generate-hex-7x8-seed3.png"),
    ("size=2x5x5&grid=layered&seed=3", "tmj",
     ["generate", "2x5x5", "-g", "layered", "--seed", "3"], "maze.tmj",
     "generate-layered-2x5x5-seed3.zip"),
    ("command=dungeon&size=12x14&seed=2&levels=2", "tilemap",
     ["dungeon", "12x14", "--seed", "2", "--levels", "2"], "maze.tilemap.json",
     "dungeon-12x14-seed2.zip"),
    ("command=blockwise&size=5x9x9&seed=1", "vox", ["blockwise", "5x9x9", "--seed", "1"],
     "maze.vox", "blockwise-5x9x9-seed1.vox"),
]


@pytest.mark.parametrize("page, fmt, args, name, saved", DOWNLOADS,
                         ids=[d[1] + "-" + d[3] for d in DOWNLOADS])
def test_a_download_is_the_commands_file_named_for_its_maze(browser, studio, tmp_path, page, fmt,
                                                           args, name, saved):
    """The file saved is the command's, named after the command, grid, size and seed (not
    ``maze.*`` whatever the maze)."""
    import zipfile

    open_page(browser, f"{studio}/?{page}")
    for old in os.listdir(browser.downloads):
        os.remove(os.path.join(browser.downloads, old))
    browser.find_element(By.CSS_SELECTOR, f"#download-buttons a[data-format='{fmt}']").click()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done = [n for n in os.listdir(browser.downloads)
                if not (n.endswith(".crdownload") or n.startswith("."))]
        if done:
            break
        time.sleep(0.1)
    assert done, os.listdir(browser.downloads)
    assert done == [saved]
    expected = tmp_path / "cli"
    expected.mkdir()
    assert main(["-q", *args, "-o", str(expected / name)]) == 0
    target = Path(browser.downloads, done[0])
    wanted = _files(expected)
    if len(wanted) == 1:
        assert target.read_bytes() == wanted[name]
    else:  # a file and its companions come as one zip of the command's files
        with zipfile.ZipFile(target) as archive:
            assert {n: archive.read(n) for n in archive.namelist()} == wanted
    assert console_errors(browser) == []


def test_a_bad_option_shows_the_commands_message(browser, studio):
    open_page(browser, f"{studio}/?size=8x8&seed=1")
    browser.execute_script("""const grid = document.getElementById('opt-grid');
        grid.value = 'hex'; document.getElementById('opt-algorithm').value = 'sidewinder';
        grid.dispatchEvent(new Event('change'));""")
    wait_for(browser, "document.getElementById('status').className === 'error' && studio.settled", timeout=30)
    assert browser.find_element(By.ID, "status").text == "sidewinder needs a grid of kind square, not hex"
    # each view says it in one line, and nothing shows as a broken picture
    assert set(shown_problems(browser)) == {"sidewinder needs a grid of kind square, not hex"}
    browser.get_log("browser")  # (the refused requests are logged; start the next test clean)


def test_choosing_a_labyrinth_drops_a_size_of_rows_and_columns(browser, studio):
    """A labyrinth is sized by its circuits: the form's 20x30 would be refused, so it goes."""
    open_page(browser, f"{studio}/?size=8x8&seed=1")
    pictures = browser.execute_script("return studio.pictures")
    browser.execute_script("""const grid = document.getElementById('opt-grid');
        grid.value = 'labyrinth'; grid.dispatchEvent(new Event('change'));""")
    wait_for(browser, f"studio.settled && studio.pictures > {pictures}", timeout=60)
    assert browser.find_element(By.ID, "size").get_attribute("value") == ""
    assert browser.find_element(By.ID, "status").get_attribute("class") != "error"
    assert not browser.find_element(By.ID, "carve-view").is_displayed()
    assert shown_problems(browser) == [] and console_errors(browser) == []


def shown_picture(driver) -> list[int]:
    """The bytes of the picture the page shows."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(studio.pictureUrl).then(r => r.arrayBuffer())"
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


def _difference(a, b) -> float:
    """The mean difference of two same-sized pictures' pixels, 0 to 255."""
    from PIL import ImageChops, ImageStat

    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


@pytest.mark.parametrize("width", [360, 768, 1280])
def test_the_layout_matches_its_reference_at_each_width(browser, studio, tmp_path, width):
    """No sideways scroll from 360 px up, and the page looks as its committed reference does
    (loosely: the same size, a small mean pixel difference, since fonts can differ)."""
    from PIL import Image

    browser.set_window_size(width, 900)
    try:
        open_page(browser, f"{studio}/?size=10x12&seed=7&solution=1")
        wait_for(browser, "studio.carve.shown >= studio.carve.total", timeout=30)
        assert browser.execute_script(
            "return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        browser.execute_script("document.activeElement.blur()")
        shot = tmp_path / "shot.png"
        browser.save_screenshot(str(shot))
        picture = Image.open(shot).convert("RGB")
        reference = REFERENCES / f"studio-{width}.png"
        if UPDATE:
            REFERENCES.mkdir(parents=True, exist_ok=True)
            picture.quantize(64).save(reference, optimize=True)
        assert reference.exists(), f"no reference: run with BLOCKMAZE_UPDATE_SAMPLES=1 to make {reference}"
        expected = Image.open(reference).convert("RGB")
        assert picture.size == expected.size
        assert _difference(picture, expected) < 8
    finally:
        browser.set_window_size(1280, 860)


def test_screenshot_for_the_readme(browser, studio, tmp_path):
    """The README's picture of the page, taken here (written to samples/ on request; also
    scripts/studio_screenshot.py)."""
    from PIL import Image

    browser.set_window_size(1720, 860)  # the three views side by side
    try:
        open_page(browser, f"{studio}/?size=16x24&seed=7&algorithm=growing-tree:0.25&solution=1&roof=0")
        wait_for(browser, "studio.carve.shown >= studio.carve.total", timeout=30)
        shot = tmp_path / "studio.png"
        browser.save_screenshot(str(shot))
        picture = Image.open(shot)
        assert picture.width >= 1000
        small = picture.convert("RGB").resize((picture.width // 2, picture.height // 2), Image.LANCZOS)
        small = small.quantize(128)
        small.save(shot, optimize=True)
        if UPDATE:
            shutil.copy(shot, SAMPLES / "studio.png")
    finally:
        browser.set_window_size(1280, 860)


def test_every_download_the_page_offers_is_written(browser, studio):
    """Every format offered for a maze of two levels answers a file (the downloads that are
    compared byte for byte with the command's files are above)."""
    open_page(browser, f"{studio}/?size=2x6x7&seed=2&grid=layered")
    answers = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const links = [...document.querySelectorAll('#download-buttons a')];
        Promise.all(links.map(async (a) => {
          const answer = await fetch(a.href);
          const body = await answer.arrayBuffer();
          return [a.dataset.format, answer.status, body.byteLength];
        })).then(done);""")
    assert len(answers) >= 20
    assert [a for a in answers if a[1] != 200 or a[2] == 0] == []


# a scripted walker: W held, turned toward each waypoint in turn (a path of plan cells)
DRIVE = """
const [path, push] = arguments, done = arguments[arguments.length - 1];
const walker = studio.walk.walker, log = [], started = performance.now();
const key = (type, code) => window.dispatchEvent(new KeyboardEvent(type, { code, bubbles: true }));
let i = 0, pushing = null;
key('keydown', 'KeyW');
function tick(now) {
  const p = walker.position;
  log.push([p[0], p[1], p[2]]);
  if (now - started > 60000) { key('keyup', 'KeyW'); return done({ log, timeout: true }); }
  if (i < path.length) {
    const [x, z] = path[i], dx = x - p[0], dz = z - p[2];
    if (Math.hypot(dx, dz) < (i === path.length - 1 ? 0.15 : 0.35)) i++;
    else walker.yaw = Math.atan2(-dx, -dz);
  } else if (pushing === null) {  // at the goal: into the wall, jumping, for a second
    pushing = now;
    walker.yaw = push;
    key('keydown', 'Space');
  } else if (now - pushing > 1000) {
    key('keyup', 'KeyW'); key('keyup', 'Space');
    return done({ log, finished: walker.finished, time: walker.time, timer: document.getElementById('timer').textContent });
  }
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);
"""


def test_walking_the_maze_reaches_the_goal_through_no_wall(browser, studio, tmp_path):
    """First person, by the game's numbers: scripted keys walk from START to GOAL along the
    command's own plan; no position of the 1.8 x 0.6 body ever overlaps a wall of that plan, a
    second of walking and jumping into the goal's wall passes nothing, and the timer stops."""
    import json
    import math
    from collections import deque

    assert main(["-q", "generate", "4x5", "--seed", "1", "--solution", "--entrances",
                 "-o", str(tmp_path / "m.tilemap.json")]) == 0
    plan = json.loads((tmp_path / "m.tilemap.json").read_text())
    grid = plan["grid"]
    ends = {e["type"]: (e["x"], e["y"]) for e in plan["entities"]}
    wall = {(x, z) for z, row in enumerate(grid) for x, glyph in enumerate(row) if glyph == "#"}
    came = {ends["start"]: None}
    queue = deque([ends["start"]])
    while queue:
        cell = queue.popleft()
        for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            step = (cell[0] + dx, cell[1] + dz)
            if step not in wall and step not in came and 0 <= step[0] < plan["width"] and 0 <= step[1] < plan["height"]:
                came[step] = cell
                queue.append(step)
    path, cell = [], ends["goal"]
    while cell is not None:
        path.append([cell[0] + 0.5, cell[1] + 0.5])
        cell = came[cell]
    path.reverse()
    gx, gz = ends["goal"]
    push = next(math.atan2(-dx, -dz) for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if (gx + dx, gz + dz) in wall)

    open_page(browser, f"{studio}/?size=4x5&seed=1&solution=1&entrances=1&theme=hedge")  # START: lime wool
    browser.find_element(By.ID, "walk").click()
    wait_for(browser, "studio.walk.on", timeout=60)
    start = browser.execute_script("return studio.walk.walker.position")
    assert (math.floor(start[0]), math.floor(start[2])) == ends["start"]  # above START
    browser.set_script_timeout(90)
    walked = browser.execute_async_script(DRIVE, path, push)
    assert not walked.get("timeout"), "the walker did not reach the goal"
    height = 4  # the floor and three blocks of wall
    for x, y, z in walked["log"]:
        if y >= height:
            continue
        for cx in range(math.floor(x - 0.3 + 1e-6), math.floor(x + 0.3 - 1e-6) + 1):
            for cz in range(math.floor(z - 0.3 + 1e-6), math.floor(z + 0.3 - 1e-6) + 1):
                assert (cx, cz) not in wall, f"the body at {x:.2f}, {y:.2f}, {z:.2f} is inside the wall {cx}, {cz}"
        assert y >= 1 - 1e-6, "the walker sank into the floor"
    assert max(y for _, y, _ in walked["log"]) > 1.9  # it jumped: about 1.25 blocks
    assert max(y for _, y, _ in walked["log"]) < 2.4
    assert walked["finished"] is not None and walked["time"] > 1
    assert walked["timer"].startswith("goal in ")
    assert console_errors(browser) == []
    browser.find_element(By.ID, "walk").click()  # stop walking


# the walker alone, in made-up volumes: a floor, and at x = 3 (across the way) what is named
WALKER = """
const [cases] = arguments, done = arguments[arguments.length - 1];
import('/static/walk.js').then(({ Volume, Walker, CLIMB }) => {
  done(cases.map(([blocks, keys, seconds]) => {
    const [w, h, l] = [8, 6, 3], heights = new Float32Array(w * h * l);
    for (let z = 0; z < l; z++) for (let x = 0; x < w; x++) heights[x + w * z] = 1;  // the floor
    for (const [y, height] of blocks) {
      for (let z = 0; z < l; z++) heights[3 + w * (z + l * y)] = height === 'climb' ? CLIMB : height;
    }
    const walker = new Walker(new Volume(w, h, l, heights, new Array(w * h * l).fill(null)));
    walker.position = [1.5, 1, 1.5]; walker.yaw = -Math.PI / 2;  // facing +x
    for (const key of keys) walker.keys.add(key);
    let highest = 0;
    for (let t = 0; t < seconds * 60; t++) {
      walker.update(1 / 60);
      highest = Math.max(highest, walker.position[1]);
      if (walker.volume.collides(walker.position)) return 'inside a block';
    }
    return [walker.position[0], walker.position[1], highest];
  }));
});
"""


def test_the_walker_moves_by_the_games_numbers(browser, studio):
    open_page(browser, f"{studio}/?size=4x4&seed=1")
    (step, wall, jumped, high, low_gap, climbed, flat) = browser.execute_async_script(WALKER, [
        [[[1, 0.5]], ["KeyW"], 1.5],               # a slab: stepped up (0.6 at most)
        [[[1, 1]], ["KeyW"], 1.5],                 # a block: stopped
        [[[1, 1]], ["KeyW", "Space"], 1.5],        # a block: jumped onto (1.25 blocks)
        [[[1, 1], [2, 1]], ["KeyW", "Space"], 1.5],  # two blocks: too high to jump
        [[[2, 1]], ["KeyW"], 1.5],                 # a gap one block high: the body is 1.8
        [[[1, "climb"], [2, "climb"]], ["KeyW", "Space"], 2.5],  # scaffolding: climbed
        [[], [], 1.0],                             # nothing held: stays on the floor
    ])
    assert step[0] > 3.5 and step[2] == pytest.approx(1.5)  # over the slab, not jumping
    assert wall[0] == pytest.approx(3 - 0.3, abs=1e-3) and wall[1] == 1
    assert jumped[0] > 3.3 and jumped[2] < 2 + 1.25 + 0.05  # (and jumped again from its top)
    assert high[0] == pytest.approx(2.7, abs=1e-3) and high[2] == pytest.approx(2.25, abs=0.08)
    assert low_gap[0] == pytest.approx(2.7, abs=1e-3)
    assert climbed[2] >= 3 - 1e-6  # up the scaffolding to stand on its top
    assert flat == [1.5, 1, 1]


def _choose(driver, element_id: str, value: str) -> None:
    """Choose ``value`` in the page's select ``element_id`` as a user does (a change event)."""
    driver.execute_script(
        "const e = document.getElementById(arguments[0]); e.value = arguments[1];"
        "e.dispatchEvent(new Event('change'));", element_id, value)


def _views_empty(driver) -> bool:
    """Whether the picture and the 3-D view show no maze."""
    return driver.execute_script(
        "return document.getElementById('picture').width === 0 && !studio.view.model"
        " && studio.shown.levels.length === 0")


def test_a_labyrinth_then_a_dungeon_keeps_the_size_and_a_refusal_leaves_no_old_maze(browser, studio):
    """Choosing a labyrinth sets the size aside (its design sizes it); a dungeon chosen next
    gets it back and is made. A size left out is refused with the views emptied, not with the
    last maze still in them."""
    open_page(browser, f"{studio}/?size=20x30&seed=1")
    _choose(browser, "opt-grid", "labyrinth")
    wait_for(browser, "studio.settled && studio.pictures > 1")
    assert browser.find_element(By.ID, "size").get_attribute("value") == ""
    pictures = browser.execute_script("return studio.pictures")
    _choose(browser, "command", "dungeon")
    wait_for(browser, f"studio.settled && studio.pictures > {pictures}")
    assert browser.find_element(By.ID, "size").get_attribute("value") == "20x30"
    assert browser.find_element(By.ID, "status").get_attribute("class") != "error"
    assert browser.find_element(By.ID, "status").text.startswith("dungeon 20x30")
    assert not _views_empty(browser)
    size = browser.find_element(By.ID, "size")
    size.clear()
    browser.find_element(By.ID, "make").click()
    wait_for(browser, "studio.settled")
    assert browser.find_element(By.ID, "status").text.startswith("size is required")
    assert _views_empty(browser)
    assert console_errors(browser) == []


def test_a_page_opened_on_a_labyrinth_gives_the_next_command_a_size(browser, studio):
    """A labyrinth's page has no size; a dungeon chosen there starts from the page's first one."""
    open_page(browser, f"{studio}/?size=&grid=labyrinth&circuits=7")
    pictures = browser.execute_script("return studio.pictures")
    _choose(browser, "command", "dungeon")
    wait_for(browser, f"studio.settled && studio.pictures > {pictures}")
    assert browser.find_element(By.ID, "size").get_attribute("value") == "20x30"
    assert browser.find_element(By.ID, "status").text.startswith("dungeon 20x30")


# held W for 1.5 s from where the walker appears, then the frame's most common colour's share
WALK_ON = """
const done = arguments[arguments.length - 1];
window.dispatchEvent(new KeyboardEvent('keydown', { code: 'KeyW', bubbles: true }));
setTimeout(() => {
  window.dispatchEvent(new KeyboardEvent('keyup', { code: 'KeyW', bubbles: true }));
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const w = studio.walk, v = w.volume, [x, y, z] = w.camera;
    const top = v.top(Math.floor(x), Math.floor(y), Math.floor(z));
    const marker = document.getElementById('walker-marker').getBoundingClientRect();
    const picture = document.getElementById('picture').getBoundingClientRect();
    done({ position: w.walker.position, inWall: top !== null && top > y, size: [v.width, v.length],
           marker: [marker.left + marker.width / 2, marker.top + marker.height / 2],
           shown: !document.getElementById('walker-marker').hidden,
           picture: [picture.left, picture.top, picture.width, picture.height] });
  }));
}, 1500);
"""


def test_walking_forward_keeps_the_passage_in_view_and_marks_the_walker_in_the_picture(
        browser, studio):
    """Walking forward for 1.5 s (into the wall at the end of the first passage): the frame
    shows the passage around that wall, not one flat face, from a camera in the open, and the
    picture marks where the walker is."""
    open_page(browser, f"{studio}/?size=20x30&seed=3")
    browser.find_element(By.ID, "walk").click()
    wait_for(browser, "studio.walk.on", timeout=60)
    walked = browser.execute_async_script(WALK_ON)
    frame = canvas_pixels(browser)
    colours = frame.getcolors(1 << 20)
    assert max(colours)[0] < 0.9 * frame.width * frame.height, "the frame is one flat face"
    assert not walked["inWall"]
    assert walked["shown"]
    left, top, width, height = walked["picture"]
    (x, _, z), (across, down) = walked["position"], walked["size"]
    expected = (left + x / across * width, top + z / down * height)
    assert abs(walked["marker"][0] - expected[0]) < 3 and abs(walked["marker"][1] - expected[1]) < 3
    browser.execute_script(  # Esc stops walking (a pointer locked to the view takes clicks)
        "window.dispatchEvent(new KeyboardEvent('keydown', { code: 'Escape', bubbles: true }))")
    assert not browser.find_element(By.ID, "walker-marker").is_displayed()
