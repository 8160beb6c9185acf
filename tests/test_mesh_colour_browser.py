"""An OBJ and a glTF of the same maze look alike in three.js: each rendered by three.js's own
loaders (OBJLoader with MTLLoader; GLTFLoader) in Debian's Chromium, from straight above under
one light set-up (tests/external/mesh_colour.html), and the colour of a wall's top compared.

three.js comes from the readers' npm folder (THREE_JS, see tests/readers.py); Chromium as for
tests/test_studio_browser.py. Without them these tests skip, except under CI=true.
"""

from __future__ import annotations

import base64
import functools
import io
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import readers
from test_mesh_formats import maze_volume
from test_studio_browser import chromium, wait_for

import blockmaze as bm

pytestmark = [pytest.mark.reader, pytest.mark.slow]

PAGE = Path(__file__).with_name("external") / "mesh_colour.html"
BLOCK_PIXELS = 40


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *arguments) -> None:  # no request lines in the test's output
        pass


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The page's folder (three.js linked in) served on loopback: (folder, url)."""
    folder = tmp_path_factory.mktemp("page")
    shutil.copy(PAGE, folder / "index.html")
    (folder / "three").symlink_to(readers.node_package("three", "THREE_JS") / "node_modules" / "three")
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield folder, f"http://127.0.0.1:{server.server_address[1]}/index.html"
    server.shutdown()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chromium(str(tmp_path_factory.mktemp("downloads")))
    yield driver
    driver.quit()


def render(browser, url: str, model: str, width: int, depth: int):
    """The file as three.js draws it, an RGB picture of BLOCK_PIXELS pixels a block."""
    from PIL import Image

    side = BLOCK_PIXELS * max(width, depth)
    browser.get(f"{url}?model={model}&width={width}&depth={depth}&pixels={side}")
    wait_for(browser, "window.rendered || window.failed", 120)
    assert browser.execute_script("return window.failed") is None, model
    data = browser.execute_script("return document.querySelector('canvas').toDataURL('image/png')")
    return Image.open(io.BytesIO(base64.b64decode(data.split(",", 1)[1]))).convert("RGB")


def test_obj_walls_are_the_colour_of_the_glb_walls_in_three_js(page, browser):
    """The .mtl's Kd is read as sRGB by MTLLoader, the glTF's colour factor as linear: a wall's
    top (the corner block) has the same colour in both, within 2 of 255 a channel."""
    folder, url = page
    volume = maze_volume(4, 5, 1, solution=True)
    bm.write(volume, folder / "maze.glb")
    bm.write(volume, folder / "maze.obj")  # and maze.mtl beside it
    _, depth, width = volume.shape
    corner = (BLOCK_PIXELS // 2, BLOCK_PIXELS // 2)  # the middle of block (x 0, z 0): a wall
    glb = render(browser, url, "maze.glb", width, depth).getpixel(corner)
    obj = render(browser, url, "maze.obj", width, depth).getpixel(corner)
    expected = bm.load_theme().color(bm.Material.WALL)
    assert max(abs(a - b) for a, b in zip(glb[:3], expected, strict=True)) <= 2, (glb, expected)  # the page's light
    assert max(abs(a - b) for a, b in zip(obj[:3], glb[:3], strict=True)) <= 2, f"OBJ {obj} against glTF {glb}"
