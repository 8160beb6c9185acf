"""Block-parallel gzip: any reader inflates it, and the bytes never depend on the thread count."""

import gzip
import io
import zlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.blocks.volume import extrude
from blockmaze.export.minecraft import parallel_gzip
from blockmaze.export.minecraft.parallel_gzip import ParallelGzip
from blockmaze.export.minecraft.sponge import write_schem_bands
from blockmaze.materials import load_theme


def gzipped(writes, threads, block, level=4) -> bytes:
    out = io.BytesIO()
    with ParallelGzip(out, level, threads=threads, block=block) as stream:
        for data in writes:
            stream.write(data)
    return out.getvalue()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.binary(max_size=3000), max_size=8), st.integers(1, 2500), st.integers(1, 9))
def test_inflates_to_what_was_written_the_same_for_any_thread_count(writes, block, level):
    data = b"".join(writes)
    files = {threads: gzipped(writes, threads, block, level) for threads in (0, 1, 3)}
    assert files[0] == files[1] == files[3]
    assert gzip.decompress(files[0]) == data
    assert zlib.decompress(files[0], 31) == data  # zlib's own gzip reader, trailer checked
    # the cut depends on the data only, not on how it was written
    assert gzipped([data], 2, block, level) == files[0]


def test_compresses_like_one_stream():
    """Priming each block with the window before it keeps the file near one stream's size."""
    rng = np.random.default_rng(1)
    data = rng.integers(0, 4, 3 << 20, dtype=np.uint8).tobytes()
    blocks = gzipped([data], 2, parallel_gzip.BLOCK)
    assert len(blocks) <= 1.01 * len(gzip.compress(data, 4, mtime=0))


def test_a_failed_write_leaves_no_trailer():
    out = io.BytesIO()
    try:
        with ParallelGzip(out, threads=2, block=8) as stream:
            stream.write(b"0123456789abcdef")
            raise RuntimeError("stop")
    except RuntimeError:
        pass
    try:
        gzip.decompress(out.getvalue())
    except EOFError:
        return
    raise AssertionError("an unfinished stream read as complete")


def test_schem_bytes_identical_for_one_and_many_threads(monkeypatch, tmp_path):
    """A .schem written from the volume and one written from bands: identical bytes with the
    block data deflated in the writing thread, on one thread and on three."""
    monkeypatch.setattr(parallel_gzip, "BLOCK", 1024)  # a 24x24 maze's data spans many blocks
    volume = extrude(bm.to_blocks(bm.generate((24, 24), rng=5)))
    theme = load_theme("glass")
    files = {}
    for threads in (0, 1, 3):
        monkeypatch.setattr(parallel_gzip, "THREADS", threads)
        out = tmp_path / f"{threads}.schem"
        bm.write(volume, out, seed=5)
        banded = io.BytesIO()
        write_schem_bands(lambda: (volume[:, z:z + 16] for z in range(0, volume.shape[1], 16)), banded, theme,
                          seed=5)
        files[threads] = (out.read_bytes(), banded.getvalue())
    assert files[0] == files[1] == files[3]
    assert len(gzip.decompress(files[0][0])) > 4 * 1024
