"""Big pictures drawn in bands: the same pixels as the whole-picture renderer, bounded memory."""

import io
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import blockmaze as bm
from blockmaze.export.pictures import STYLES, render_image, render_png
from blockmaze.export.pngbands import write_png_bands


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 9), cols=st.integers(1, 9), seed=st.integers(0, 99),
       style=st.sampled_from(STYLES), cell=st.integers(1, 12), band=st.integers(1, 4),
       extras=st.booleans(), masked=st.booleans(), wide=st.booleans())
def test_bands_draw_the_same_pixels_as_the_whole_picture(rows, cols, seed, style, cell, band, extras,
                                                         masked, wide):
    mask = None
    if masked and rows >= 3 and cols >= 3:
        mask = np.ones((rows, cols), bool)
        mask[rows // 2, cols // 2] = False
    grid = bm.square_grid(rows, cols, mask=mask)
    maze = bm.generate(grid, rng=seed) if mask is not None else bm.generate((rows, cols), rng=seed)
    options = dict(style=style, cell_size=cell)
    if wide:
        options["wall_width"] = cell
    if extras:
        options.update(endpoints=bm.place_endpoints(maze, "entrances"), shade=True,
                       solution=style != "blocks")  # blocks + solution is drawn whole
    out = io.BytesIO()
    write_png_bands(maze, out, band_rows=band, **options)
    banded = np.asarray(Image.open(io.BytesIO(out.getvalue())))
    whole = render_image(maze, **options)
    assert banded.shape == np.asarray(whole).shape
    assert (banded == np.asarray(whole)).all()
    assert Image.open(io.BytesIO(out.getvalue())).getpalette() == whole.getpalette()[:len(
        Image.open(io.BytesIO(out.getvalue())).getpalette())]


def test_banded_png_is_deterministic_and_chosen_for_big_pictures():
    maze = bm.generate((200, 260), rng=5)
    first, second = io.BytesIO(), io.BytesIO()
    render_png(maze, first, cell_size=12)   # 3.1 M cells of pixels... over BAND_PIXELS: banded
    render_png(maze, second, cell_size=12)
    assert first.getvalue() == second.getvalue()
    assert b"IDAT" in first.getvalue() and first.getvalue()[12:16] == b"IHDR"
    assert (np.asarray(Image.open(first)) == np.asarray(render_image(maze, cell_size=12))).all()


@pytest.mark.slow
def test_a_big_picture_stays_in_bounded_memory(tmp_path):
    probe = textwrap.dedent("""
        import sys, blockmaze as bm
        from blockmaze.export.pictures import render_png
        maze = bm.generate((1000, 1000), rng=1)
        before = int(next(l.split()[1] for l in open("/proc/self/status") if l.startswith("VmRSS:")))
        render_png(maze, sys.argv[1], cell_size=8, shade=True)
        peak = int(next(l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM:")))
        print((peak - before) // 1024)
    """)
    path = tmp_path / "big.png"
    result = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, check=True)
    assert int(result.stdout) < 200  # an 8000x8000 picture: 64 MB as one image; far less in bands
    assert Image.open(path).size == (8008, 8008)
