"""blockmaze info: correct summaries, and only clear errors for damaged or hostile files."""

import gzip
import io
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.readers.info import inspect_bytes
from blockmaze.materials import Material

VOLUME = bm.extrude(bm.to_blocks(bm.generate((5, 7), rng=3)), height=3)


def written(fmt, **options):
    out = io.BytesIO()
    bm.write(VOLUME, out, format=fmt, **options)
    return out.getvalue()


def document_bytes():
    out = io.BytesIO()
    bm.save_maze(bm.MazeDocument(bm.generate((5, 7), rng=3), algorithm="backtracker", seed=3), out)
    return out.getvalue()


@pytest.mark.parametrize("version", [2, 3])
def test_schem_summary_counts_every_block(version):
    info = inspect_bytes(written("schem", schem_version=version, mc_version="1.21.4"), "m.schem")
    assert info.format == f"Sponge schematic v{version}"
    assert info.size == (15, 4, 11) and info.data_version == 4189
    assert info.counts == {
        "minecraft:air": int((VOLUME == Material.AIR).sum()),
        "minecraft:stone_bricks": int((VOLUME == Material.WALL).sum()),
        "minecraft:smooth_stone": int((VOLUME == Material.FLOOR).sum()),
    }
    assert any("1.21.4" in line for line in info.lines())


NAMED_FORMATS = {"structure": "structure (.nbt)", "litematic": "Litematica schematic",
                 "mcstructure": "Bedrock structure", "schematic": "MCEdit schematic"}


@pytest.mark.parametrize("fmt", [f for f in NAMED_FORMATS if f in bm.WRITERS])
def test_every_minecraft_format_is_summarised_block_for_block(fmt):
    info = inspect_bytes(written(fmt), f"m.{fmt}")
    assert info.format.startswith(NAMED_FORMATS[fmt])
    assert info.size == (15, 4, 11)
    theme = bm.load_theme()
    expected = {}
    for material, count in zip(*np.unique(VOLUME, return_counts=True), strict=True):
        state = theme.minecraft[material]
        name = state.split("[")[0] if fmt == "mcstructure" else state
        expected[name] = expected.get(name, 0) + int(count)
    found = {k: v for k, v in info.counts.items()}
    if fmt in ("mcstructure", "schematic"):  # Bedrock names and numeric ids: compare counts only
        assert sorted(found.values()) == sorted(expected.values())
    else:
        assert found == expected


def test_datapack_summary():
    info = inspect_bytes(written("datapack", mc_version="1.21"), "m.zip")
    assert info.format == "datapack (.zip)" and info.details["pack_format"] == 48
    assert "fill" in info.details["commands"] and info.details["functions"] >= 3


def test_maze_document_summary():
    info = inspect_bytes(document_bytes(), "m.json")
    assert info.details["grid"] == "square 5x7" and info.details["perfect"] is True


def samples():
    extra = [written(f) for f in list(NAMED_FORMATS) + ["datapack"] if f in bm.WRITERS]
    return [written("schem", schem_version=2), written("schem", schem_version=3), document_bytes()] + extra


def regzip(raw: bytes) -> bytes:
    return gzip.compress(raw, mtime=0)


@pytest.mark.slow
@settings(max_examples=300)
@given(st.integers(0, 3 + sum(f in bm.WRITERS for f in NAMED_FORMATS)), st.data())
def test_damaged_files_give_clear_errors(which, data):
    original = samples()[which]
    raw = gzip.decompress(original) if original[:2] == b"\x1f\x8b" else original
    damage = data.draw(st.sampled_from(["truncate", "flip", "garbage-tail"]))
    if damage == "truncate":
        cut = data.draw(st.integers(0, len(raw) - 1))
        raw = raw[:cut]
    elif damage == "flip":
        for _ in range(data.draw(st.integers(1, 8))):
            i = data.draw(st.integers(0, len(raw) - 1))
            raw = raw[:i] + bytes([data.draw(st.integers(0, 255))]) + raw[i + 1:]
    else:
        raw = raw + data.draw(st.binary(min_size=1, max_size=64))
    blob = regzip(raw) if original[:2] == b"\x1f\x8b" else raw
    try:
        inspect_bytes(blob, "damaged")
    except bm.BlockmazeError as error:
        assert "\n" not in str(error)


@given(st.binary(max_size=512))
def test_random_bytes_never_crash(blob):
    try:
        inspect_bytes(blob, "random")
    except bm.BlockmazeError:
        pass


def test_hostile_lengths_and_bombs_are_refused_quickly():
    # a root compound holding a List of 2**31 - 1 compounds, with no bytes behind it
    huge_list = b"\x0a\x00\x00" + b"\x09\x00\x01x" + b"\x0a" + struct.pack(">i", 2**31 - 1)
    with pytest.raises(bm.BlockmazeError, match="exceeds|truncated"):
        inspect_bytes(regzip(huge_list), "hostile")
    deep = b"\x0a\x00\x00" + (b"\x0a\x00\x01a") * 5000
    with pytest.raises(bm.BlockmazeError, match="deep|truncated"):
        inspect_bytes(regzip(deep), "deep")
    from blockmaze.readers.nbtread import inflate
    with pytest.raises(bm.BlockmazeError, match="more than"):
        inflate(gzip.compress(bytes(10_000_000)), limit=1_000_000)


def test_cli_info_and_errors(tmp_path, capsys):
    from blockmaze.cli import main
    path = tmp_path / "m.schem"
    path.write_bytes(written("schem"))
    assert main(["info", str(path)]) == 0
    assert "Sponge schematic v2" in capsys.readouterr().out
    path.write_bytes(written("schem")[:50])
    assert main(["info", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Error: m.schem:") and err.count("\n") == 1
