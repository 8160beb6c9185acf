"""The studio is safe to leave running: pages of other sites cannot drive it, a request cannot
change the server, bodies and jobs are bounded, and abandoned work stops. Loopback only,
bounded in count and time."""

from __future__ import annotations

import io
import os
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

if os.environ.get("CI") != "true":
    pytest.importorskip("starlette", reason="the studio needs pip install '.[web]'")
from starlette.testclient import TestClient  # noqa: E402

from blockmaze.web.app import Settings, create_app  # noqa: E402
from blockmaze.web.jobs import Limits  # noqa: E402


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(), base_url="http://localhost")


@pytest.mark.parametrize("headers", [
    {"host": "evil.example"},
    {"host": "192.168.1.5:8000"},
    {"origin": "http://evil.example"},
    {"origin": "null"},
])
def test_foreign_hosts_and_origins_get_403(client, headers):
    for path in ("/", "/api/options", "/api/generate?size=3x3&format=png"):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 403 and "localhost" in answer.json()["error"]


def test_loopback_names_are_answered(client):
    for host in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000", "127.5.6.7"):
        assert client.get("/api/options", headers={"host": host}).status_code == 200
    answer = client.get("/api/options", headers={"origin": "http://127.0.0.1:8000"})
    assert answer.status_code == 200


@pytest.mark.parametrize("query", ["memory-limit=1", "output=/tmp/x", "split=16", "mask=/etc/passwd"])
def test_no_request_can_change_the_server_or_name_its_files(client, query):
    answer = client.get(f"/api/generate?size=3x3&format=maze&{query}")
    assert answer.status_code == 400 and "has no option" in answer.json()["error"]
    assert "BLOCKMAZE_MEMORY_LIMIT" not in os.environ
    assert client.get("/api/generate?size=3x3&seed=1&format=maze").status_code == 200


def test_a_declared_huge_body_is_refused_unread(client):
    answer = client.post("/api/generate?size=3x3&format=maze", content=b"x",
                         headers={"content-length": str(300 << 20)})
    assert answer.status_code == 413


@pytest.mark.slow
def test_a_streamed_body_is_refused_once_it_passes_the_limit():
    """A chunked upload is refused as soon as it passes the limit: the answer comes while the
    client still holds the rest back."""
    from studio_server import running_studio

    with running_studio(Settings(mask_bytes=1000)) as url:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=5) as connection:
            connection.sendall(b"POST /api/generate?size=3x3&format=maze HTTP/1.1\r\n"
                               b"Host: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
                               + b"%x\r\n" % 1500 + b"." * 1500 + b"\r\n")
            answer = connection.recv(4096)  # (the body's end is never sent)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:40]


def test_a_picture_mask_works_and_errors_show_no_server_path(client):
    from PIL import Image

    picture = Image.new("L", (5, 3), 255)
    picture.putpixel((0, 0), 0)
    data = io.BytesIO()
    picture.save(data, "PNG")
    answer = client.post("/api/generate?size=3x5&seed=2&format=maze", content=data.getvalue())
    assert answer.status_code == 200, answer.text
    assert answer.json()["grid"]["disabled"] == [0]  # the black pixel's cell is left out
    bad = client.post("/api/generate?size=3x5&format=maze", content=b"\x89PNG\r\n\x1a\nnot a png")
    assert bad.status_code == 400
    assert "blockmaze-studio-" not in bad.json()["error"] and "/tmp" not in bad.json()["error"]


@pytest.mark.parametrize("query, what", [
    ("size=1000x1000", "dungeon"),   # a dungeon's blocks, not its cells
])
def test_limits_count_the_real_work(client, query, what):
    answer = client.get(f"/api/{what}?{query}&format=schem")
    assert answer.status_code == 413 and "blocks" in answer.json()["error"]


def test_polar_sizes_are_counted_as_their_cells(client):
    answer = client.get("/api/generate?size=400&grid=polar&format=png")
    assert answer.status_code == 413


@pytest.mark.slow
def test_a_job_past_its_time_is_stopped():
    slow = TestClient(create_app(Settings(seconds=0.3, limits=Limits(cells=10**7, blocks=10**9,
                                                                     pixels=10**10))),
                      base_url="http://localhost")
    started = time.monotonic()
    answer = slow.get("/api/generate?size=1500x1500&format=glb&seed=1")
    assert answer.status_code == 504 and time.monotonic() - started < 10


def _abandon(url: str, count: int) -> None:
    """Send ``count`` heavy requests and hang up on each at once."""
    host, port = url.removeprefix("http://").split(":")
    for seed in range(count):
        with socket.create_connection((host, int(port)), timeout=5) as connection:
            connection.sendall(f"GET /api/generate?size=400x400&format=glb&seed={seed} HTTP/1.1\r\n"
                               f"Host: localhost\r\n\r\n".encode())


@pytest.mark.slow
def test_abandoned_heavy_requests_stop_and_the_page_still_answers():
    import httpx

    from studio_server import running_studio

    with running_studio(Settings(workers=2, queue=8)) as url:
        _abandon(url, 50)
        started = time.monotonic()
        page = httpx.get(f"{url}/", timeout=10)
        answered = time.monotonic() - started
        assert page.status_code == 200 and answered < 1, answered
        deadline = time.monotonic() + 30  # the abandoned jobs stop: a new one runs soon
        while time.monotonic() < deadline:
            answer = httpx.get(f"{url}/api/generate?size=4x4&seed=1&format=maze", timeout=30)
            if answer.status_code == 200:
                break
            time.sleep(0.2)
        assert answer.status_code == 200


@pytest.mark.slow
def test_a_full_queue_answers_503_at_once():
    import httpx

    from studio_server import running_studio

    with running_studio(Settings(workers=1, queue=1)) as url, ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda seed: httpx.get(
            f"{url}/api/generate?size=300x300&seed={seed}&format=glb", timeout=60), range(6)))
    codes = sorted(a.status_code for a in answers)
    assert 503 in codes and 200 in codes, codes


def _closed_by_server(connection: socket.socket, within: float) -> bool:
    """Whether the server closes ``connection`` (reads end) within ``within`` seconds."""
    connection.settimeout(within)
    try:
        return connection.recv(1024) == b""
    except TimeoutError:
        return False


def test_a_head_sent_too_slowly_is_closed_and_a_prompt_one_answered():
    """A client trickling a request's head is cut off after head_seconds (slow connections would
    otherwise hold the server's file handles without end); a whole head in time is answered."""
    import httpx

    from studio_server import running_studio

    with running_studio(Settings(head_seconds=0.5)) as url:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=5) as slow:
            slow.sendall(b"GET / HTTP/1.1\r\nHost: local")  # and never the rest
            assert _closed_by_server(slow, 5)
        assert httpx.get(f"{url}/", timeout=10).status_code == 200


def test_connections_past_the_cap_are_closed_as_they_arrive():
    import httpx

    from studio_server import running_studio

    with running_studio(Settings(connections=4, head_seconds=30)) as url:
        host, port = url.removeprefix("http://").split(":")
        held = [socket.create_connection((host, int(port)), timeout=5) for _ in range(4)]
        try:
            time.sleep(0.2)  # the server has taken them in
            with socket.create_connection((host, int(port)), timeout=5) as extra:
                assert _closed_by_server(extra, 5)
        finally:
            for connection in held:
                connection.close()
        deadline = time.monotonic() + 10  # the held ones are gone: a page answers again
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        assert httpx.get(f"{url}/", timeout=5).status_code == 200


# values every option may be given in a random query: good ones, bad ones, and ones that look
# like the command line's own flags
WILD = ["1", "0", "", "-o", "3", "2x2", "nope", "1e400", "-1", "99999999", "hex", "0.5", "x" * 300]


@st.composite
def _queries(draw):
    """A command (or the carve) and a query of up to four of its options, each given a value
    from its choices or from WILD, with a size and a format that may be wrong too."""
    from blockmaze.web.jobs import describe

    described = describe()
    command = draw(st.sampled_from(["generate", "blockwise", "dungeon", "carve"]))
    options = described["commands"]["generate" if command == "carve" else command]
    query = {}
    for option in draw(st.lists(st.sampled_from(options), max_size=4, unique_by=lambda o: o["flag"])):
        choices = option.get("choices") or []
        query[option["flag"]] = draw(st.sampled_from(choices + WILD) if choices else st.sampled_from(WILD))
    query["size"] = draw(st.sampled_from(["3x3", "2x3x3", "3", "", "0x2", "x", "3x3x3x3"]))
    query["format"] = draw(st.sampled_from([f["name"] for f in described["formats"]] + ["nope"]))
    return command, query


@settings(max_examples=int(os.environ.get("BLOCKMAZE_STUDIO_EXAMPLES", "40")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(_queries())
def test_random_queries_get_the_file_or_a_one_line_refusal(client, case):
    """Never an internal error: a request the command would refuse is refused in one line."""
    command, query = case
    answer = client.get(f"/api/{command}", params=query)
    assert answer.status_code in (200, 400, 413), (answer.status_code, answer.text)
    if answer.status_code != 200:
        error = answer.json()["error"]
        assert error and "\n" not in error and "Traceback" not in error
