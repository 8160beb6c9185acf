"""The studio's API gives the command line's bytes and messages, and stays bounded."""

from __future__ import annotations

import io
import os
import zipfile
from concurrent.futures import ThreadPoolExecutor

import pytest

if os.environ.get("CI") != "true":
    pytest.importorskip("starlette", reason="the studio needs pip install '.[web]'")
from starlette.testclient import TestClient  # noqa: E402

from blockmaze.cli import main  # noqa: E402
from blockmaze.web.app import Settings, create_app  # noqa: E402
from blockmaze.web.jobs import Limits  # noqa: E402


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(), base_url="http://localhost")


def cli_bytes(tmp_path, args, name):
    out = tmp_path / name
    assert main(["-q"] + args + ["-o", str(out)]) == 0
    return out.read_bytes()


def member(data: bytes, name: str) -> bytes:
    """The file ``name`` of a zipped answer (a format that writes files beside its own)."""
    return zipfile.ZipFile(io.BytesIO(data)).read(name)


CASES = [
    ("generate", "size=20x30&seed=7&format=schem", ["20x30", "--seed", "7"], "maze.schem"),
    ("generate", "size=12x9&seed=3&format=glb&roof=1&algorithm=wilson&braid=0.3",
     ["12x9", "--seed", "3", "--roof", "-a", "wilson", "--braid", "0.3"], "maze.glb"),
    ("generate", "size=10x10&seed=5&format=png&solution=1&shade=1&picture-style=paths",
     ["10x10", "--seed", "5", "--solution", "--shade", "--picture-style", "paths"], "maze.png"),
    ("generate", "size=6&grid=hex&seed=2&format=svg", ["6", "-g", "hex", "--seed", "2"], "maze.svg"),
    ("generate", "size=8x8&seed=4&format=tmx&entrances=1", ["8x8", "--seed", "4", "--entrances"],
     "maze.tmx"),
    ("generate", "size=7x9&seed=9&format=maze&algorithm=growing-tree:0.25",
     ["7x9", "--seed", "9", "-a", "growing-tree:0.25"], "maze.json"),
    ("generate", "size=9x9&seed=1&format=litematic&wall=2&passage=3&height=4&lights=1&theme=hedge&mc-version=1.20.4",
     ["9x9", "--seed", "1", "--wall", "2", "--passage", "3", "--height", "4", "--lights",
      "--theme", "hedge", "--mc-version", "1.20.4"], "maze.litematic"),
    ("blockwise", "size=31x41&seed=3&format=schem", ["31x41", "--seed", "3"], "maze.schem"),
    ("generate", "size=7&grid=labyrinth&format=png&solution=1", ["7", "-g", "labyrinth",
                                                                "--solution"], "maze.png"),
    ("generate", "size=11&grid=labyrinth&style=chartres&format=stl&finger=8x3",
     ["11", "-g", "labyrinth", "--style", "chartres", "--finger", "8x3"], "maze.stl"),
    ("generate", "size=6x7&seed=2&unicursal=1&entrances=1&format=schem",
     ["6x7", "--seed", "2", "--unicursal", "--entrances"], "maze.schem"),
    ("dungeon", "size=30x40&seed=3&format=tilemap&style=caves",
     ["30x40", "--seed", "3", "--style", "caves"], "maze.tilemap.json"),
]


@pytest.mark.parametrize("command, query, args, name", CASES, ids=[c[3] + "-" + c[0] for c in CASES])
def test_the_api_returns_the_commands_bytes(client, tmp_path, command, query, args, name):
    answer = client.get(f"/api/{command}?{query}")
    assert answer.status_code == 200, answer.text
    expected = cli_bytes(tmp_path, [command] + args, name)
    data = answer.content
    if answer.headers["content-type"] == "application/zip":  # a tile map and its tile set
        assert member(data, "maze-tiles.png") == (tmp_path / "maze-tiles.png").read_bytes()
        data = member(data, name)
    assert data == expected


def test_a_maze_sized_elsewhere_needs_no_size(client, tmp_path):
    """A labyrinth's size comes from its design, a maze's from its mask, as in the command."""
    answer = client.get("/api/generate?grid=labyrinth&circuits=11&format=png")
    assert answer.status_code == 200, answer.text
    assert answer.content == cli_bytes(tmp_path, ["generate", "-g", "labyrinth", "--circuits",
                                                  "11"], "maze.png")
    mask = tmp_path / "mask.txt"
    mask.write_text("..X..\n.....\nX...X\n")
    answer = client.post("/api/generate?seed=2&format=maze", content=mask.read_bytes())
    assert answer.status_code == 200, answer.text
    assert answer.content == cli_bytes(tmp_path, ["generate", "--seed", "2", "--mask", str(mask)],
                                       "m.json")
    carve = client.post("/api/carve?seed=2", content=mask.read_bytes())
    assert carve.status_code == 200 and sum(carve.json()["enabled"]) == 12
    for refused in ("/api/carve?grid=labyrinth", "/api/carve?size=7&grid=labyrinth"):
        answer = client.get(refused)
        assert answer.status_code == 400
        assert answer.json()["error"] == ("a labyrinth is drawn from its design, not carved: it "
                                          "has no carve to replay")
    for command in ("dungeon", "blockwise"):
        assert client.get(f"/api/{command}?format=tmx").json()["error"] == \
            "size is required, e.g. size=20x30"


def test_a_mask_upload_gives_the_commands_maze(client, tmp_path):
    mask = tmp_path / "mask.txt"
    mask.write_text("..X..\n.....\nX...X\n")
    answer = client.post("/api/generate?size=3x5&seed=2&format=maze", content=mask.read_bytes())
    assert answer.status_code == 200, answer.text
    assert answer.content == cli_bytes(tmp_path, ["generate", "3x5", "--seed", "2", "--mask",
                                                  str(mask)], "m.json")


@pytest.mark.parametrize("query, message, args", [
    ("size=0x3", "size must be whole numbers >= 1", ["0x3"]),
    ("size=5x5&algorithm=nope", "unknown algorithm 'nope'", ["5x5", "-a", "nope"]),
    ("size=5x5&braid=2", "--braid", ["5x5", "--braid", "2"]),
    ("size=5x5&theme=nether", "theme must be one of", None),
    ("size=5x5&theme=/etc/passwd", "theme must be one of", None),
    ("size=5x5&format=exe", "unknown format 'exe'", None),
    ("size=5x5&output=/etc/passwd", "generate has no option 'output'", None),
    ("size=5x5&mask=/etc/passwd", "generate has no option 'mask'", None),
    ("size=5x5&roof=maybe", "--roof is on or off", None),
    # a terminal's options: the studio writes a file (animate=1 was an internal error)
    ("size=5x5&animate=1", "generate has no option 'animate'", None),
    ("size=5x5&fps=3", "generate has no option 'fps'", None),
    ("size=5x5&text-style=ascii", "generate has no option 'text-style'", None),
    ("format=png", "size is required", None),
    ("size=-o", "size must be whole numbers", None),  # never taken for an option
    ("size=5x5&seed=-o", "'-o' is not a whole number", None),
])
def test_bad_parameters_get_the_commands_one_line_message(client, tmp_path, query, message, args,
                                                          capsys):
    answer = client.get(f"/api/generate?{query}")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert message in error and "\n" not in error
    if args is not None:  # the same line the command prints
        assert main(["generate"] + args + ["-o", str(tmp_path / "m.schem")]) == 2
        assert capsys.readouterr().err.strip() == f"Error: {error}"


@pytest.mark.parametrize("query", ["size=100000x100000", "size=600x600",
                                   "size=100x100&passage=400", "size=400x400&cell-size=100"])
def test_huge_requests_are_refused_with_the_reason_before_any_work(client, query):
    answer = client.get(f"/api/generate?{query}&format=schem")
    assert answer.status_code == 413
    assert "at most" in answer.json()["error"] or "passes" in answer.json()["error"]


def test_huge_blockwise_and_dungeon_requests_are_refused(client):
    for command in ("blockwise", "dungeon"):
        answer = client.get(f"/api/{command}?size=100000x100000&format=schem")
        assert answer.status_code == 413 and "blocks" in answer.json()["error"]


def test_request_rate_is_bounded():
    client = TestClient(create_app(Settings(rate=3)), base_url="http://localhost")
    codes = [client.get("/api/generate?size=2x2&seed=1&format=maze").status_code for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]


def test_limits_are_settings():
    client = TestClient(create_app(Settings(Limits(cells=10))), base_url="http://localhost")
    assert client.get("/api/generate?size=4x4&format=maze").status_code == 413


@pytest.mark.slow
def test_twenty_concurrent_300x300_requests_all_succeed(tmp_path):
    import httpx

    from studio_server import running_studio

    with running_studio() as url, ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda seed: httpx.get(
            f"{url}/api/generate?size=300x300&seed={seed}&format=schem", timeout=120), range(20)))
    assert [a.status_code for a in answers] == [200] * 20
    for seed in (0, 13):
        assert answers[seed].content == cli_bytes(tmp_path, ["generate", "300x300", "--seed",
                                                             str(seed)], f"{seed}.schem")


def test_downloads_leave_no_files_behind(client, tmp_path, monkeypatch):
    import multiprocessing.util
    import tempfile

    # multiprocessing's own folder (one a process, removed as it exits) made first, elsewhere:
    # made here by the run's first job in this process, it was taken for a download's
    multiprocessing.util.get_temp_dir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    client.get("/api/generate?size=4x4&seed=1&format=tmx")
    assert list(tmp_path.iterdir()) == []


def test_serve_without_the_extra_names_it(monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve"]) == 2
    assert "pip install 'blockmaze[web]'" in capsys.readouterr().err


@pytest.mark.slow
def test_serve_binds_localhost_and_prints_its_url():
    import socket
    import subprocess
    import sys

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "blockmaze", "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        for _ in range(200):
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
                break
            except httpx.ConnectError:
                __import__("time").sleep(0.05)
        assert page.status_code == 200 and "blockmaze studio" in page.text
        assert "/static/studio.js" in page.text
        assert httpx.get(f"http://127.0.0.1:{port}/static/vendor/three/LICENSE").status_code == 200
    finally:
        server.terminate()
        server.wait(10)


@pytest.mark.parametrize("query, saved", [
    ("dungeon?size=20x30&seed=7&format=schem", "dungeon-20x30-seed7.schem"),
    ("dungeon?size=20x30&seed=7&format=tmx", "dungeon-20x30-seed7.zip"),  # (with its tile set)
    ("generate?size=6&grid=hex&seed=2&format=svg", "generate-hex-6-seed2.svg"),
    ("blockwise?size=5x9x9&seed=1&format=vox", "blockwise-5x9x9-seed1.vox"),
    ("generate?grid=labyrinth&format=png", "generate-labyrinth.png"),
])
def test_a_download_is_named_after_its_command_grid_size_and_seed(client, query, saved):
    answer = client.get(f"/api/{query}")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-disposition"] == f'attachment; filename="{saved}"'
