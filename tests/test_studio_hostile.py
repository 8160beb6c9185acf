"""The studio is safe to leave running: pages of other sites cannot drive it, a request cannot
change the server, bodies and jobs are bounded, and abandoned work stops. Loopback only,
bounded in count and time."""

from __future__ import annotations

import contextlib
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
    {"host": "127.0.0.1:80@evil.com"},   # a user part: the host is evil.com
    {"host": "[::1]evil.com"},
    {"host": "localhost:8001"},           # another port: another server's page
    {"host": "localhost:80/x"},
    {"origin": "http://evil.example"},
    {"origin": "null"},
    {"origin": "http://localhost:8001"},
    {"origin": "https://localhost"},
    {"origin": "http://localhost/path"},
])
def test_foreign_hosts_and_origins_get_403(client, headers):
    for path in ("/", "/api/options", "/api/generate?size=3x3&format=png"):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 403 and "localhost" in answer.json()["error"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(["localhost", "127.0.0.1", "[::1]"]),
       junk=st.text(alphabet="@/?#[]:.% \t\\evil8", min_size=1, max_size=12))
def test_a_host_with_anything_after_its_own_authority_is_refused(client, name, junk):
    """Only ``name`` or ``name:80`` (the test client's port) exactly: whatever follows (a user
    part's ``@``, a path, a second port, a stray bracket) makes another authority."""
    answer = client.get("/api/options", headers={"host": f"{name}:80{junk}"})
    assert answer.status_code == 403, (name, junk)


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_requests_a_browser_marks_as_from_another_site_get_403(client, site):
    """An image, script or no-cors fetch from another page carries no Origin, but the browser
    says where it came from; same-site is another port of this machine (another local server)."""
    for path in ("/", "/api/generate?size=3x3&format=png", "/api/carve?size=3x3"):
        answer = client.get(path, headers={"sec-fetch-site": site, "sec-fetch-mode": "no-cors"})
        assert answer.status_code == 403 and "other sites" in answer.json()["error"]


def test_loopback_names_and_the_servers_port_are_answered(client):
    # (the test client's server is localhost port 80: a Host without a port names port 80)
    for host in ("localhost", "localhost:80", "127.0.0.1", "127.0.0.1:80", "[::1]:80",
                 "127.5.6.7", "LOCALHOST"):
        assert client.get("/api/options", headers={"host": host}).status_code == 200, host
    for origin in ("http://127.0.0.1", "http://localhost:80", "http://[::1]"):
        answer = client.get("/api/options", headers={"origin": origin})
        assert answer.status_code == 200, origin
    for site in ("same-origin", "none"):  # the studio's own page; an address typed in
        assert client.get("/api/options", headers={"sec-fetch-site": site}).status_code == 200
    # a link on another site may open the page (its requests are then its own), not the API
    link = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate"}
    assert client.get("/", headers=link).status_code == 200
    assert client.get("/api/generate?size=3x3&format=png", headers=link).status_code == 403


def test_a_huge_cell_size_is_a_one_line_refusal(client, tmp_path, capsys):
    """In the studio (400) and in the command (exit 2), not an internal error."""
    from blockmaze.cli import main

    for value in ("1e308", "100000"):
        answer = client.get(f"/api/generate?size=5&format=png&cell-size={value}")
        assert answer.status_code == 400, answer.text
        assert "cell-size" in answer.json()["error"]
        capsys.readouterr()
        assert main(["generate", "5", "--cell-size", value, "-o", str(tmp_path / "m.png")]) == 2
        lines = capsys.readouterr().err.strip().splitlines()
        assert len(lines) == 1 and "--cell-size" in lines[0], lines
        assert not (tmp_path / "m.png").exists()


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
            connection.sendall(f"POST /api/generate?size=3x3&format=maze HTTP/1.1\r\n"
                               f"Host: {host}:{port}\r\nTransfer-Encoding: chunked\r\n\r\n"
                               .encode() + b"%x\r\n" % 1500 + b"." * 1500 + b"\r\n")
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
                               f"Host: {host}:{port}\r\n\r\n".encode())


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


def test_a_newcomer_past_the_cap_takes_the_place_of_the_longest_waiting():
    """Idle connections cannot lock the page out: past the cap, the one that has waited longest
    for its client to send a request is closed to let the newcomer in."""
    import httpx

    from studio_server import address, running_studio

    with running_studio(Settings(connections=4, head_seconds=30)) as url:
        held = []
        try:
            for _ in range(8):
                held.append(socket.create_connection(address(url), timeout=5))
                time.sleep(0.05)  # (taken in one by one: the oldest is the first)
            started = time.monotonic()
            assert httpx.get(f"{url}/", timeout=5).status_code == 200
            assert time.monotonic() - started < 2
            assert all(_closed_by_server(c, 5) for c in held[:4])  # the oldest made room
        finally:
            for connection in held:
                connection.close()


def test_only_a_head_waiting_unread_keeps_a_connection_from_being_closed_for_room():
    """A connection whose request may wait unread in its socket is passed over when room is
    made; an upload's unread body bytes are not a request: a trickling upload that has waited
    longest is closed like any other (else 32 trickles at the front lock every newcomer out)."""
    from types import SimpleNamespace

    import h11

    from blockmaze.web.connections import _unread

    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.sendall(b"bytes from the client")
        time.sleep(0.05)
        transport = SimpleNamespace(get_extra_info=lambda name: ours)
        for state, passed in ((h11.IDLE, True), (h11.SEND_BODY, False)):
            connection = SimpleNamespace(conn=SimpleNamespace(their_state=state),
                                         transport=transport)
            assert _unread(connection) is passed, state


def test_each_client_has_its_own_cap():
    import httpx

    from studio_server import address, running_studio

    with running_studio(Settings(connections=100, per_client=3, head_seconds=30)) as url:
        held = [socket.create_connection(address(url), timeout=5) for _ in range(3)]
        try:
            time.sleep(0.2)
            assert httpx.get(f"{url}/", timeout=5).status_code == 200
            assert _closed_by_server(held[0], 5)  # its fourth connection took the first's place
        finally:
            for connection in held:
                connection.close()


def test_an_upload_trickled_a_byte_at_a_time_is_cut_off_at_its_time():
    """A body sent slowly but never stalling is refused once ``body_seconds`` have passed."""
    from studio_server import address, running_studio

    with running_studio(Settings(body_seconds=1)) as url:
        with socket.create_connection(address(url), timeout=5) as slow:
            slow.sendall(f"POST /api/generate?size=3x3&format=maze HTTP/1.1\r\nHost: {url[7:]}"
                         "\r\nContent-Length: 1000\r\n\r\n".encode())
            started, answer = time.monotonic(), b""
            slow.settimeout(0.2)
            while time.monotonic() - started < 6 and not answer:
                try:
                    slow.send(b"x")
                    answer = slow.recv(4096) or b"(closed)"
                except TimeoutError:
                    pass
                except OSError:
                    answer = b"(closed)"
        assert answer.startswith(b"HTTP/1.1 408"), answer[:40]
        assert time.monotonic() - started < 4


@pytest.mark.slow
def test_the_page_answers_within_2_s_during_1000_half_open_connections_and_300_trickles(tmp_path):
    """A real server (its own process, its file handles limited to 1024 as on many systems) under
    1,000 half-open connections and 300 uploads trickled a byte at a time: its page answers
    within 2 s throughout, and its log shows no traceback."""
    import resource

    import httpx

    from studio_server import raise_open_files, serve_process, slow_clients

    if not raise_open_files(4096):
        pytest.skip("this test opens 1,300 connections: it needs 4096 file handles")

    def limited():
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    server, url = serve_process(tmp_path, preexec_fn=limited)
    try:
        times = []
        with slow_clients(url, half_open=1000, trickling=300, seconds=60):
            for _ in range(10):
                started = time.monotonic()
                assert httpx.get(f"{url}/", timeout=10).status_code == 200
                times.append(time.monotonic() - started)
                time.sleep(1)
        server.terminate()
        _, err = server.communicate(timeout=30)
    finally:
        server.kill()
    assert max(times) < 2, times
    assert "Traceback" not in err and err.strip().splitlines() == ["stopped"], err[-2000:]


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


@pytest.mark.slow
@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT twice", "SIGHUP"])
def test_a_stop_with_jobs_running_ends_everything_within_2_s_and_leaves_nothing(tmp_path, how,
                                                                              terminal_signals):
    """SIGTERM or SIGHUP to the server, or Ctrl-C twice (the terminal sends SIGINT to the whole
    group): the server, its fork server and its jobs are gone within 2 s, their folders too,
    and it says one word. (A single Ctrl-C to the group already ended a server with light jobs
    in time.)"""
    import signal
    import subprocess

    from studio_server import running_in_session, serve_process, start_heavy_jobs, wait_for_processes

    server, url = serve_process(tmp_path)
    pool = start_heavy_jobs(url, 4)
    try:
        wait_for_processes(server.pid, 1 + 2 + 4)  # the server, its resource tracker and fork server
        assert [p for p in tmp_path.iterdir() if p.name.startswith("blockmaze-studio-")]
        started = time.monotonic()
        if how.startswith("SIGINT"):
            os.killpg(server.pid, signal.SIGINT)
            if how.endswith("twice"):
                time.sleep(0.1)
                os.killpg(server.pid, signal.SIGINT)
        else:
            server.send_signal(getattr(signal, how))
        try:
            _, err = server.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail("the server still runs 20 s after the stop")
        took = time.monotonic() - started
        deadline = time.monotonic() + 2
        while running_in_session(server.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = running_in_session(server.pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        pool.shutdown(wait=False, cancel_futures=True)
    assert took < 2, took
    assert left == [], left
    assert server.returncode == 0 and err.strip().splitlines() == ["stopped"], err
    assert list(tmp_path.iterdir()) == []
