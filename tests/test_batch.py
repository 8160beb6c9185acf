"""blockmaze batch and bm.batch: items from a root seed and their index alone, the same dataset for
any shard size, worker count and engine, resumed after a stop; and the environments built on the
same levels."""

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from blockmaze.batches import MANIFEST, batch
from blockmaze.cli import main
from blockmaze.mazes.documents import decode_links, load_maze

import readers

import pyarrow.parquet as pq


def _table(folder):
    return pq.read_table(folder).sort_by("index")


def test_a_row_is_the_maze_generate_makes_with_its_seed(tmp_path):
    from blockmaze.jobs import run

    done = batch("generate", {"size": (6, 7), "algorithm": "prim"}, count=5, seed=11,
                 output=str(tmp_path / "m.parquet"), shard_size=2)
    rows = _table(done.folder).to_pylist()
    assert [r["index"] for r in rows] == list(range(5)) and len({r["seed"] for r in rows}) == 5
    for row in rows:
        path = tmp_path / f"{row['index']}.json"
        run("generate", size=(6, 7), algorithm="prim", seed=row["seed"], output=str(path))
        document = load_maze(path)
        links = decode_links(row["links"], *document.maze.links.shape)
        assert (links == document.maze.links).all()
        assert (row["start"], row["goal"]) == (document.endpoints.start, document.endpoints.goal)
        path_cells = document.maze.shortest_path(row["start"], row["goal"])
        assert row["solution"] == path_cells.tolist() and row["length"] == len(path_cells)


@settings(max_examples=6, deadline=None)
@given(st.integers(1, 9), st.integers(0, 2 ** 64 - 1))
def test_the_same_rows_for_any_shard_size(tmp_path_factory, shard_size, root):
    folder = tmp_path_factory.mktemp("shards")
    kept = dict(count=9, seed=root, vary="size=3:6 braid=0:0.5 algorithm=prim|backtracker")
    one = batch("generate", {"size": 4}, output=str(folder / "a.parquet"), shard_size=9, **kept)
    other = batch("generate", {"size": 4}, output=str(folder / "b.parquet"),
                  shard_size=shard_size, **kept)
    assert _table(one.folder).equals(_table(other.folder))
    assert len(other.shards) == -(-9 // shard_size)


def test_drawn_options_stay_in_their_ranges(tmp_path):
    done = batch("generate", {}, count=40, seed=3, output=str(tmp_path / "m.parquet"),
                 vary="size=3x4:6x9 exits=0:2 algorithm=prim|kruskal")
    for row in _table(done.folder).to_pylist():
        options = json.loads(row["options"])
        assert 3 <= row["shape"][0] <= 6 and 4 <= row["shape"][1] <= 9
        assert options["size"] == row["shape"] and 0 <= options["exits"] <= 2
        assert options["algorithm"] in ("prim", "kruskal")


def test_a_stopped_batch_resumes_to_the_same_hash(tmp_path):
    whole = batch("generate", {"size": 5}, count=20, seed=2, shard_size=3,
                  output=str(tmp_path / "whole.parquet"))
    cut = tmp_path / "cut.parquet"
    batch("generate", {"size": 5}, count=20, seed=2, shard_size=3, output=str(cut))
    (cut / "part-00002.parquet").unlink()
    (cut / "part-00005.parquet").rename(cut / ".tmp-1-part-00005.parquet")  # (a write cut short)
    (cut / ".tmp-1-part-00005.parquet").write_bytes(b"PAR1 half")
    again = batch("generate", {"size": 5}, count=20, seed=2, shard_size=3, output=str(cut))
    assert again.resumed == 5 and again.hash == whole.hash
    assert not list(cut.glob(".tmp-*"))
    manifest = json.loads((cut / MANIFEST).read_text())
    assert manifest["hash"] == whole.hash and len(manifest["shards"]) == 7


def test_npz_shards_load_in_numpy_and_match_the_parquet_rows(tmp_path):
    kept = dict(count=7, seed=5, shard_size=4, plan=True)
    parquet = batch("generate", {"size": (3, 5)}, output=str(tmp_path / "m.parquet"), **kept)
    npz = batch("generate", {"size": (3, 5)}, output=str(tmp_path / "m.npz"), **kept)
    rows = _table(parquet.folder).to_pylist()
    first = np.load(npz.folder / "part-00000.npz")
    assert first["index"].tolist() == [0, 1, 2, 3]
    assert first["seed"].tolist() == [r["seed"] for r in rows[:4]]
    offsets = first["solution_offsets"]
    assert first["solution"][offsets[1]:offsets[2]].tolist() == rows[1]["solution"]
    plan = first["plan"][first["plan_offsets"][2]:first["plan_offsets"][3]]
    assert plan.tobytes() == rows[2]["plan"] and rows[2]["plan_shape"] == [7, 11]
    again = batch("generate", {"size": (3, 5)}, output=str(tmp_path / "again.npz"), **kept)
    assert again.hash == npz.hash


def test_a_level_pack_writes_each_item_as_the_command_does(tmp_path):
    done = batch("dungeon", {"size": (12, 14)}, count=3, seed=9, output=str(tmp_path / "pack"),
                 format_="tmx", vary="style=bsp|caves")
    index = json.loads((done.folder / "index.json").read_text())
    assert [item["index"] for item in index["items"]] == [0, 1, 2]
    for item in index["items"]:
        for name, digest in item["files"].items():
            assert hashlib.sha256((done.folder / name).read_bytes()).hexdigest() == digest
    again = batch("dungeon", {"size": (12, 14)}, count=3, seed=9, output=str(tmp_path / "pack2"),
                  format_="tmx", vary="style=bsp|caves")
    assert again.hash == done.hash


def test_a_level_pack_of_maze_documents_holds_the_items_seeds(tmp_path):
    done = batch("generate", {"size": (4, 4), "kind": "hex"}, count=3, seed=1,
                 output=str(tmp_path / "docs"), format_="maze")
    for item in json.loads((done.folder / "index.json").read_text())["items"]:
        (name,) = item["files"]
        assert load_maze(done.folder / name).seed == item["seed"]


@pytest.mark.parametrize("args, words", [
    (["generate", "5", "-n", "3", "-o", "OUT/x.parquet", "--vary", "colour=1:2"],
     "generate has no option colour"),
    (["generate", "5", "-n", "3", "-o", "OUT/x.parquet", "--vary", "size=9:5"],
     "LOW must not be above HIGH"),
    (["dungeon", "20x20", "-n", "3", "-o", "OUT/x.parquet"], "as a level pack"),
    (["generate", "5", "-n", "3", "-o", "OUT/pack"], "needs --format NAME"),
    (["generate", "7", "-n", "3", "-o", "OUT/x.parquet", "-g", "labyrinth"],
     "labyrinths as a level pack"),
    (["generate", "-n", "3", "-o", "OUT/x.parquet", "--vary", "size=3:9", "--exits", "20"],
     "for exits, not 20"),
    (["generate", "5", "-n", "3", "-o", "OUT/x.parquet", "--engine", "dask", "--scheduler",
      "x", "--workers", "0"], "--workers"),
])
def test_bad_batches_are_one_line_before_any_work(tmp_path, capsys, args, words):
    args = [a.replace("OUT", str(tmp_path)) for a in args]
    assert main(["batch", *args]) == 2
    error = capsys.readouterr().err
    assert error.startswith("Error: ") and words in error and "Traceback" not in error
    assert not list(tmp_path.rglob("part-*"))


def test_another_batch_or_other_files_in_the_folder_are_refused(tmp_path, capsys):
    out = tmp_path / "m.parquet"
    assert main(["batch", "generate", "4", "-n", "2", "--seed", "1", "-o", str(out)]) == 0
    assert main(["batch", "generate", "4", "-n", "3", "--seed", "1", "-o", str(out)]) == 2
    assert "holds another batch" in capsys.readouterr().err
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    assert main(["batch", "generate", "4", "-n", "3", "-o", str(tmp_path / "other"),
                 "--format", "tmx"]) == 2
    assert "is not empty" in capsys.readouterr().err


def test_pandas_reads_the_dataset_folder(tmp_path):
    pandas = pytest.importorskip("pandas")
    done = batch("generate", {"size": 5}, count=6, seed=4, output=str(tmp_path / "m.parquet"),
                 shard_size=4)
    frame = pandas.read_parquet(done.folder).sort_values("index")
    assert list(frame["index"]) == list(range(6)) and set(frame["kind"]) == {"square"}


def test_hugging_face_datasets_reads_the_shards(tmp_path):
    datasets = readers.module("datasets", "datasets")
    done = batch("generate", {"size": 5}, count=6, seed=4, output=str(tmp_path / "m.parquet"),
                 shard_size=4)
    loaded = datasets.load_dataset("parquet", data_files=str(done.folder / "part-*.parquet"),
                                   split="train", cache_dir=str(tmp_path / "cache"))
    assert sorted(loaded["index"]) == list(range(6))
    assert loaded.features["solution"].feature.dtype == "int32"


# --- the same bytes on every engine, and after kills (one launch each: CI time is tight)

@pytest.mark.slow
def test_every_worker_count_and_engine_gives_the_same_hash(tmp_path):
    readers.module("dask", "dask[distributed]")
    readers.module("ray", "ray")
    kept = dict(count=24, seed=8, shard_size=5, vary="size=4:8 braid=0:0.3")
    hashes = {}
    for name, engine, workers in (("1", "local", 1), ("2", "local", 2), ("4", "local", 4),
                                  ("dask", "dask", 2), ("ray", "ray", 2)):
        done = batch("generate", {}, output=str(tmp_path / f"{name}.parquet"), engine=engine,
                     workers=workers, **kept)
        hashes[name] = done.hash
    assert len(set(hashes.values())) == 1, hashes


@pytest.mark.slow
def test_a_batch_killed_at_random_moments_resumes_to_the_same_hash(tmp_path):
    args = ["generate", "9", "-n", "3000", "--shard-size", "150", "--seed", "5", "--workers", "2"]
    command = [sys.executable, "-m", "blockmaze", "batch", *args]
    whole = tmp_path / "whole.parquet"
    subprocess.run([*command, "-o", str(whole)], check=True, capture_output=True, timeout=300)
    expected = json.loads((whole / MANIFEST).read_text())["hash"]
    cut = tmp_path / "cut.parquet"
    chance = random.Random(os.environ.get("BLOCKMAZE_KILL_SEED"))
    for _ in range(int(os.environ.get("BLOCKMAZE_KILLS", "3"))):
        process = subprocess.Popen([*command, "-o", str(cut)], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(chance.uniform(0.5, 4.0))
        os.killpg(process.pid, signal.SIGKILL)  # the command and its workers, at once
        process.wait()
    subprocess.run([*command, "-o", str(cut)], check=True, capture_output=True, timeout=300)
    assert json.loads((cut / MANIFEST).read_text())["hash"] == expected


# --- the environments

def _bfs_moves(walls, start, goal):
    """The moves (0 north, 1 south, 2 west, 3 east) of a shortest walk from start to goal."""
    steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
    came = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            break
        for move, (dz, dx) in enumerate(steps):
            there = (here[0] + dz, here[1] + dx)
            if (0 <= there[0] < walls.shape[0] and 0 <= there[1] < walls.shape[1]
                    and not walls[there] and there not in came):
                came[there] = (here, move)
                queue.append(there)
    moves = []
    while came[goal] is not None:
        goal, move = came[goal]
        moves.append(move)
    return moves[::-1]


@pytest.mark.parametrize("options", [{"size": (6, 6)}, {"size": (4, 4), "kind": "hex"},
                                     {"size": (4, 5), "kind": "triangle", "braid": 0.5}])
def test_a_breadth_first_agent_reaches_the_goal_on_every_level(options):
    readers.module("gymnasium", "gymnasium")
    from blockmaze.gym import GOAL, MazeEnv

    env = MazeEnv(num_levels=20, start_level=100, seed=7, **options)
    for level in range(100, 120):
        observation, info = env.reset(options={"level": level})
        walls = env.levels.level(level).walls
        assert tuple(np.argwhere(observation == GOAL)[0]) == info["goal"]
        reward, done = 0.0, False
        for move in _bfs_moves(walls, info["agent"], info["goal"]):
            observation, reward, done, truncated, info = env.step(move)
            assert not truncated
        assert done and reward == 1.0 and info["agent"] == info["goal"]


def test_the_environments_pass_gymnasium_and_minigrid_checks():
    gymnasium = readers.module("gymnasium", "gymnasium")
    readers.module("minigrid", "minigrid")
    from gymnasium.utils.env_checker import check_env

    from blockmaze.gym import ENV_ID, MiniGridMaze

    for view in (None, 5):
        check_env(gymnasium.make(ENV_ID, size=(5, 5), num_levels=8, view=view).unwrapped)
    minigrid = MiniGridMaze(size=(4, 4), num_levels=8, seed=2)
    check_env(minigrid)
    observation, _ = minigrid.reset(seed=1)
    assert observation["image"].shape == (7, 7, 3) and minigrid.grid.width == 9
    from minigrid.core.world_object import Goal

    level = minigrid.levels.level(minigrid.index)
    assert isinstance(minigrid.grid.get(level.goal[1], level.goal[0]), Goal)


def test_level_i_is_batch_item_i(tmp_path):
    readers.module("gymnasium", "gymnasium")
    from blockmaze.gym import MazeEnv

    done = batch("generate", {"size": (5, 6)}, count=4, seed=12, plan=True,
                 output=str(tmp_path / "m.parquet"))
    env = MazeEnv(size=(5, 6), seed=12)
    for row in _table(done.folder).to_pylist():
        plan = np.frombuffer(row["plan"], np.uint8).reshape(row["plan_shape"])
        level = env.levels.level(row["index"])
        assert level.seed == row["seed"] and ((plan == 1) == level.walls).all()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 64 - 1), st.integers(0, 2 ** 32 + 5), st.integers(1, 4),
       st.integers(0, 3))
def test_seeds_of_a_shard_at_once_are_seedsequences_own(root, first, count, stream):
    from blockmaze.support.randomness import item_seed, item_seeds

    assert item_seeds(root, first, count, stream).tolist() == [
        item_seed(root, i, stream) for i in range(first, first + count)]


def test_measures_are_info_analysis_own(tmp_path):
    from blockmaze.jobs import run
    from blockmaze.mazes.measures import analyze

    done = batch("generate", {"size": (5, 6), "braid": 0.5}, count=3, seed=4, measures=True,
                 output=str(tmp_path / "m.parquet"))
    for row in _table(done.folder).to_pylist():
        path = tmp_path / f"{row['index']}.json"
        run("generate", size=(5, 6), braid=0.5, seed=row["seed"], output=str(path))
        document = load_maze(path)
        facts = analyze(document.maze, document.endpoints)
        assert json.loads(row["measure_junctions"]) == {str(k): v for k, v in
                                                        facts.pop("junctions").items()}
        assert {name: row[f"measure_{name}"] for name in facts} == facts
    npz = batch("generate", {"size": (5, 6), "braid": 0.5}, count=3, seed=4, measures=True,
                output=str(tmp_path / "m.npz"))
    shard = np.load(npz.folder / "part-00000.npz")
    assert shard["measure_dead_ends"].tolist() == [r["measure_dead_ends"] for r in
                                                   _table(done.folder).to_pylist()]
