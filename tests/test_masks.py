"""Masks from text and PNG images, for every grid kind, and the connectivity check."""

import io

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

import blockmaze as bm
from blockmaze.grids import GRID_KINDS
from blockmaze.grids.geometry import cell_shapes
from blockmaze.mazes.masks import (check_connected, components, mask_from_image, mask_from_text, mask_shape,
                             mask_to_text, masked_grid, regions)
from spanning import assert_spanning_tree

KINDS = ["square", "hex", "upsilon", "triangle", "polar", "layered"]
EXAMPLE_SHAPES = {"square": (5, 6), "hex": (5, 6), "upsilon": (5, 6), "triangle": (5, 6),
                  "polar": (4,), "layered": (2, 5, 6)}
masks_2d = st.integers(1, 12).flatmap(
    lambda rows: st.integers(1, 12).flatmap(
        lambda cols: st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols).map(
            lambda bits: np.array(bits, bool).reshape(rows, cols))))


def png_bytes(mask, scale=1, mode="1"):
    image = Image.fromarray((np.kron(mask, np.ones((scale, scale))) * 255).astype(np.uint8)).convert(mode)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


@given(masks_2d)
def test_text_round_trip(mask):
    assert np.array_equal(mask_from_text(mask_to_text(mask)), mask)
    assert np.array_equal(mask_from_text(mask_to_text(mask), kind="hex", shape=mask.shape), mask)


@given(masks_2d, st.integers(1, 3))
def test_png_round_trip_one_pixel_per_cell_and_scaled(mask, scale):
    path = io.BytesIO(png_bytes(mask))
    assert np.array_equal(mask_from_image(path), mask)
    scaled = io.BytesIO(png_bytes(mask, scale, mode="L"))
    assert np.array_equal(mask_from_image(scaled, kind="upsilon", shape=mask.shape), mask)


def test_png_file_on_disk_and_transparency(tmp_path):
    mask = np.array([[True, False, True], [False, True, True]])
    target = tmp_path / "mask.png"
    target.write_bytes(png_bytes(mask))
    assert np.array_equal(mask_from_image(str(target), kind="triangle"), mask)
    rgba = Image.new("RGBA", (3, 1), (0, 0, 0, 255))
    rgba.putpixel((1, 0), (0, 0, 0, 0))  # transparent: flattened onto white, so enabled
    rgba.putpixel((2, 0), (200, 200, 200, 255))  # light grey: enabled
    assert mask_from_image(rgba).tolist() == [[False, True, True]]


def test_text_rules():
    assert mask_from_text("\n\nX.\n.\n\n").tolist() == [[False, True], [True, True]]  # short line: on
    with pytest.warns(bm.BlockmazeWarning, match="holds '#', 'x': only X marks a cell left out"):
        assert mask_from_text("x X#").tolist() == [[True, True, False, True]]  # only X is off
    with pytest.raises(bm.BlockmazeError, match="2 rows x 2 columns, the grid 3 x 2"):
        mask_from_text("..\n..", kind="hex", shape=(3, 2))
    with pytest.raises(bm.BlockmazeError, match="empty"):
        mask_from_text("\n  \n")
    with pytest.raises(bm.BlockmazeError, match="only a layered grid"):
        mask_from_text("..\n\n..")


def test_layered_masks():
    levels = mask_from_text("X.\n..\n\n..\n.X", kind="layered")
    assert levels.shape == (2, 2, 2) and levels.sum() == 6
    assert mask_to_text(levels) == "X.\n..\n\n..\n.X"
    same = mask_from_text("X.\n..", kind="layered", shape=(3, 2, 2))
    assert same.shape == (3, 2, 2) and (~same[:, 0, 0]).all() and same.sum() == 9
    image = mask_from_image(io.BytesIO(png_bytes(np.array([[False, True]]))), kind="layered", shape=(2, 1, 2))
    assert image.tolist() == [[[False, True]], [[False, True]]]
    with pytest.raises(bm.BlockmazeError, match="levels x rows x columns"):
        mask_from_text("..\n\n..", kind="layered", shape=(3, 1, 2))


def test_polar_masks_sample_the_picture_at_centroids():
    picture = np.ones((10, 10), bool)
    picture[:, :5] = False  # the west half is black
    mask = mask_from_image(io.BytesIO(png_bytes(picture)), kind="polar", shape=(4,))
    grid = GRID_KINDS["polar"](4)
    centroids = cell_shapes(grid).centroids()
    assert mask.shape == mask_shape("polar", (4,)) == (grid.size,)
    assert np.array_equal(mask, centroids[:, 0] > 4)
    text = mask_from_text("XXXXX.....\n" * 10, kind="polar", shape=(4,))
    assert np.array_equal(text, mask)
    with pytest.raises(bm.BlockmazeError, match="shape must be given"):
        mask_from_text("..", kind="polar")
    with pytest.raises(bm.BlockmazeError, match="use fit='picture'"):
        mask_from_text("..", kind="polar", shape=(2,), fit="cells")


def test_picture_fit_on_hex_follows_the_drawing():
    template = "\n".join("X" * 40 if r < 20 else "." * 40 for r in range(40))  # the north half off
    mask = mask_from_text(template, kind="hex", shape=(5, 5), fit="picture")
    shapes = cell_shapes(GRID_KINDS["hex"](5, 5))
    xmin, ymin, xmax, ymax = shapes.bounds()
    ys = shapes.centroids()[:, 1].reshape(5, 5)
    assert np.array_equal(mask, ys > (ymin + ymax) / 2)
    assert mask[2].tolist() == [False, True, False, True, False]  # the odd columns sit lower
    picture = Image.fromarray(np.where(mask_from_text(template), 255, 0).astype(np.uint8))
    assert mask_from_image(picture, kind="hex", shape=(5, 5)).tolist()[2] == [True] * 5  # one pixel per cell


def test_bad_fit_and_unreadable_image():
    with pytest.raises(bm.BlockmazeError, match="unknown mask fit"):
        mask_from_text("..", fit="stretch")
    with pytest.raises(bm.BlockmazeError, match="cannot read the mask image"):
        mask_from_image(io.BytesIO(b"not a png"))
    with pytest.raises(bm.BlockmazeError, match="unknown grid kind"):
        masked_grid("klein", (2, 2), None)


def reference_components(grid):
    """Region count by an independent Python flood fill."""
    seen, count = set(), 0
    for start in np.flatnonzero(grid.enabled).tolist():
        if start in seen:
            continue
        count += 1
        stack = [start]
        seen.add(start)
        while stack:
            cell = stack.pop()
            for nb in grid.neighbors[cell].tolist():
                if nb >= 0 and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
    return count


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.2, 0.9))
def test_components_and_regions(kind, seed, keep):
    shape = EXAMPLE_SHAPES[kind]
    mask = np.random.default_rng(seed).random(mask_shape(kind, shape)) < keep
    grid = GRID_KINDS[kind](*shape, mask=mask)
    labels, count = components(grid)
    assert count == reference_components(grid)
    assert (labels[~grid.enabled] == -1).all() and (labels[grid.enabled] >= 0).all()
    parts = regions(grid)
    assert len(parts) == count
    assert [p.sum() for p in parts] == sorted((p.sum() for p in parts), reverse=True)
    if count:
        assert np.array_equal(np.sum(parts, axis=0), mask)  # the regions partition the enabled cells
    for part in parts:
        assert part.shape == mask.shape
        region_grid = check_connected(GRID_KINDS[kind](*shape, mask=part))
        maze = bm.generate(region_grid, rng=seed)  # one maze per region
        assert_spanning_tree(maze)
    if count > 1:
        with pytest.raises(bm.BlockmazeError, match=f"the mask leaves {count} separate regions"):
            masked_grid(kind, shape, mask)
        grids = masked_grid(kind, shape, mask, split=True)
        assert [g.enabled_count for g in grids] == [int(p.sum()) for p in parts]
    elif count == 1:
        assert masked_grid(kind, shape, mask).enabled_count == mask.sum()
    else:
        with pytest.raises(bm.BlockmazeError, match="disables every cell"):
            masked_grid(kind, shape, mask)


def test_disconnected_template_error_message():
    mask = mask_from_text("..X..\n..X..\nXXXXX\n.....")
    with pytest.raises(bm.BlockmazeError) as error:
        masked_grid("square", (4, 5), mask)
    assert str(error.value).startswith("the mask leaves 3 separate regions (of 5, 4, 4 cells)")
    assert [g.enabled_count for g in masked_grid("square", (4, 5), mask, split=True)] == [5, 4, 4]
    # on hexagons too: the disabled column and row separate the same three blocks
    assert len(regions(GRID_KINDS["hex"](4, 5, mask=mask))) == 3
