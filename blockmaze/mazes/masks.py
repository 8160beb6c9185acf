"""Masks from text and images: which cells of a grid are enabled, for any grid kind.

A mask is a bool array in the shape the kind's constructor takes (see :func:`mask_shape`): ``(rows,
cols)`` for square, hex, upsilon and triangle grids, ``(levels, rows, cols)`` for layered grids,
and one value per cell for polar grids. True = enabled.

Two ways to fit a picture (a text template or an image) to a grid, chosen with ``fit``:

- ``"cells"`` (the default where the mask is 2-D or 3-D): one character or pixel per cell of the
  ``(rows, cols)`` array. A text template must have exactly that size (without ``shape`` its size
  sets the shape); an image of another size is resampled (nearest pixel) to ``rows`` x ``cols``.
  For layered grids a 2-D picture masks every level alike; a text template may instead give one
  block per level, separated by blank lines.
- ``"picture"`` (the only choice for polar grids): the picture is stretched over the grid's drawing
  (:func:`blockmaze.grids.geometry.cell_shapes`) and each cell takes the value at its centroid, so a
  silhouette keeps its look on hexagons, triangles or rings.

Text: ``X`` marks a disabled cell, ``.`` or a space an enabled one (any other character is
enabled too, with a warning: ``x`` or ``#`` were likely meant as ``X``); lines shorter than the
longest are enabled to the end. Images: black is disabled — pixels darker
than mid grey, after transparency is flattened onto white — anything lighter is enabled.

A mask that splits the grid into separate regions cannot hold one maze: :func:`masked_grid` raises
a BlockmazeError, or with ``split=True`` returns one grid per region; :func:`regions` gives the
regions as masks.

Example
-------
>>> mask = mask_from_text("....\\n.XX.\\n....")
>>> mask.shape, int(mask.sum())
((3, 4), 10)
>>> masked_grid("hex", (3, 4), mask)
Grid(hex, 3x4, 2 masked)
"""

from __future__ import annotations

import io
import struct
import warnings
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO, Literal, overload

import numpy as np

from ..analysis import label_regions
from ..errors import BadFileError, BlockmazeError, BlockmazeWarning
from ..support.wording import article
from ..grids import GRID_KINDS, Grid, grid_constructor
from ..grids.geometry import cell_shapes

OFF = "X"
ENABLED = frozenset(". ")  # the characters a template documents for a kept cell
MAX_MASK_FILE_BYTES = 1 << 28  # 256 MiB: a text template of MAX_MASK_PIXELS cells and newlines
MAX_MASK_PIXELS = 1 << 26  # 67 M pixels (8192 x 8192): a mask has a pixel per cell at most, or a picture
FITS = ("cells", "picture")
ARRAY_KINDS = frozenset({"square", "hex", "upsilon", "triangle", "layered"})  # mask shape = grid shape


def _build(kind: str, shape: Sequence[int], mask=None) -> Grid:
    return grid_constructor(kind)(*shape, mask=mask)


def mask_shape(kind: str, shape: Sequence[int]) -> tuple[int, ...]:
    """The shape of the mask array the ``kind`` constructor takes for grid shape ``shape``.

    >>> mask_shape("hex", (3, 4)), mask_shape("polar", (2,))
    ((3, 4), (12,))
    """
    shape = tuple(int(v) for v in shape)
    if kind == "polar":
        from ..grids.polar import polar_cell_count

        return (polar_cell_count(shape[0]),)
    if kind in ARRAY_KINDS:
        return shape
    size = _build(kind, shape).size  # another kind: its mask is its shape if that counts its cells
    return shape if int(np.prod(shape)) == size else (size,)


# --- text -------------------------------------------------------------------------------------

def _text_blocks(text: str) -> list[np.ndarray]:
    """The template's blocks (separated by blank lines) as bool arrays, True = enabled."""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.strip() == "":
            if blocks[-1]:
                blocks.append([])
        else:
            blocks[-1].append(line.rstrip("\r\n"))
    blocks = [b for b in blocks if b]
    if not blocks:
        raise BlockmazeError("the mask template is empty; give rows of characters, X for a disabled cell")
    odd = sorted(set("".join(line for block in blocks for line in block)) - ENABLED - {OFF})
    if odd:
        shown = ", ".join(repr(ch) for ch in odd[:5]) + (" ..." if len(odd) > 5 else "")
        warnings.warn(f"the mask template holds {shown}: only {OFF} marks a cell left out (. or a "
                      f"space one kept), so those cells are kept", BlockmazeWarning, stacklevel=3)
    arrays = []
    for block in blocks:
        width = max(len(line) for line in block)
        if len(block) * width > MAX_MASK_PIXELS:
            raise BlockmazeError(f"the mask template is {width} x {len(block)} characters, more than "
                                 f"the {MAX_MASK_PIXELS} cells a mask may have")
        array = np.ones((len(block), width), dtype=bool)
        for r, line in enumerate(block):
            array[r, : len(line)] = [ch != OFF for ch in line]
        arrays.append(array)
    return arrays


def mask_from_text(text: str, kind: str = "square", shape: Sequence[int] | None = None,
                   fit: str | None = None) -> np.ndarray:
    """A mask from a text template: ``X`` = disabled cell, anything else enabled.

    Without ``shape`` the template's rows and columns set it (not for polar grids). For layered
    grids, blocks separated by blank lines are levels (one block masks every level alike).

    >>> mask_from_text("X..\\n...").tolist()
    [[False, True, True], [True, True, True]]
    >>> mask_from_text("X..", kind="layered", shape=(2, 1, 3)).shape
    (2, 1, 3)
    """
    blocks = _text_blocks(text)
    if len(blocks) > 1:
        if kind != "layered":
            raise BlockmazeError(
                f"the mask template has {len(blocks)} blocks separated by blank lines; only a layered "
                "grid takes several (one per level)"
            )
        if len({b.shape for b in blocks}) > 1:
            raise BlockmazeError("every level of a layered mask template must have the same rows and columns")
        levels = np.stack(blocks)
        if shape is not None and tuple(shape) != levels.shape:
            raise BlockmazeError(
                f"the mask template is {'x'.join(map(str, levels.shape))} (levels x rows x columns), "
                f"the grid {'x'.join(map(str, shape))}"
            )
        return levels
    return _fit(blocks[0], kind, shape, fit, exact=True, what="mask template")


# --- images -----------------------------------------------------------------------------------

def _image_array(source) -> np.ndarray:
    """An image (path, binary file or PIL image) as a bool array, True where lighter than mid grey."""
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError:  # pragma: no cover - Pillow is a dependency
        raise BlockmazeError("reading a mask image needs Pillow: pip install pillow") from None
    if isinstance(source, Image.Image):
        image = source
    else:
        name = getattr(source, "name", source)
        if not hasattr(source, "read") and Path(source).exists() and not Path(source).is_file():
            raise BadFileError(f"{name}: not a regular file; a mask image is a picture file (PNG, ...)")
        try:
            with warnings.catch_warnings():  # Pillow's bomb warning, as an error: no huge images
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                image = Image.open(source)
                if image.width * image.height > MAX_MASK_PIXELS:
                    raise BadFileError(f"{name}: a {image.width}x{image.height}-pixel mask image is more "
                                       f"than the {MAX_MASK_PIXELS} pixels a mask may have")
                image.load()
        except BadFileError:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
            raise BadFileError(f"{name}: refused as a decompression bomb: {error}") from None
        except (OSError, UnidentifiedImageError, ValueError, SyntaxError, EOFError, IndexError,
                TypeError, struct.error, zlib.error) as error:
            raise BadFileError(f"{name}: cannot read the mask image: {error}") from None
        except MemoryError:
            raise BadFileError(f"{name}: the mask image needs more memory than is available") from None
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        image = Image.alpha_composite(white, rgba)
    return np.asarray(image.convert("L")) >= 128


def mask_from_image(source: str | BinaryIO, kind: str = "square", shape: Sequence[int] | None = None,
                    fit: str | None = None) -> np.ndarray:
    """A mask from a black-and-white image: black (darker than mid grey) = disabled.

    ``source`` is a path, a binary file or a PIL image. With ``fit="cells"`` the image is
    resampled (nearest pixel) to the grid's rows x columns, one pixel per cell; without ``shape``
    its pixel size sets the shape. With ``fit="picture"`` (polar grids) each cell takes the pixel
    under its centroid.

    >>> from PIL import Image
    >>> image = Image.new("1", (4, 2), 1); image.putpixel((0, 0), 0)
    >>> mask_from_image(image).astype(int).tolist()
    [[0, 1, 1, 1], [1, 1, 1, 1]]
    """
    return _fit(_image_array(source), kind, shape, fit, exact=False, what="mask image")


IMAGE_SUFFIXES = (".png", ".gif", ".bmp", ".jpg", ".jpeg", ".webp")


def load_mask(path: str | Path, kind: str = "square", shape: Sequence[int] | None = None) -> np.ndarray:
    """A mask from a file: a picture (by its suffix: ``.png``, ``.gif``, ...) or a text template.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "mask.txt")
    ...     _ = open(path, "w").write("X.\\n..")
    ...     load_mask(path).tolist()
    [[False, True], [True, True]]
    """
    from ..support.files import read_regular

    path = Path(path)
    data = read_regular(path, "mask", MAX_MASK_FILE_BYTES)
    try:
        if path.suffix.lower() in IMAGE_SUFFIXES:
            source = io.BytesIO(data)
            source.name = str(path)
            return mask_from_image(source, kind, shape)
        return mask_from_text(data.decode("utf-8"), kind, shape)
    except UnicodeDecodeError as error:
        raise BadFileError(f"cannot read mask {path}: not UTF-8 text ({error})") from None


# --- fitting a picture to a grid --------------------------------------------------------------

def _fit(picture: np.ndarray, kind: str, shape: Sequence[int] | None, fit: str | None,
         exact: bool, what: str) -> np.ndarray:
    """Turn a 2-D bool picture into the mask of ``kind``/``shape`` (see the module docstring)."""
    if fit is not None and fit not in FITS:
        raise BlockmazeError(f"unknown mask fit {fit!r}; choose one of: {', '.join(FITS)}")
    if shape is None:
        if kind == "layered":
            return picture[None].copy()
        if fit == "picture" or kind == "polar" or kind not in GRID_KINDS:
            raise BlockmazeError(f"{article(kind)} grid's shape must be given to fit a {what} to it")
        shape = picture.shape
    shape = tuple(int(v) for v in shape)
    target = mask_shape(kind, shape)
    if len(target) == 3:  # layered: a 2-D picture masks every level alike
        plane = _fit(picture, "square", target[1:], fit, exact, what)
        return np.broadcast_to(plane, target).copy()
    if fit is None:
        fit = "cells" if len(target) == 2 else "picture"
    if fit == "cells":
        if len(target) != 2:
            raise BlockmazeError(f"{article(kind)} grid's cells are not rows and columns; use fit='picture'")
        if picture.shape == target:
            return picture.copy()
        if exact:
            raise BlockmazeError(
                f"the {what} is {picture.shape[0]} rows x {picture.shape[1]} columns, "
                f"the grid {target[0]} x {target[1]}"
            )
        return _resample(picture, target)
    return _sample_at_centroids(picture, _build(kind, shape))


def _resample(picture: np.ndarray, target: tuple[int, int]) -> np.ndarray:
    """Nearest-pixel resampling: cell (r, c) takes the pixel under its centre."""
    rows, cols = target
    height, width = picture.shape
    y = np.minimum(((np.arange(rows) + 0.5) * height / rows).astype(np.int64), height - 1)
    x = np.minimum(((np.arange(cols) + 0.5) * width / cols).astype(np.int64), width - 1)
    return picture[np.ix_(y, x)]


def _sample_at_centroids(picture: np.ndarray, grid: Grid) -> np.ndarray:
    """The picture stretched over the grid's drawing; each cell takes the pixel under its centroid."""
    shapes = cell_shapes(grid)
    xmin, ymin, xmax, ymax = shapes.bounds()
    centroid = shapes.centroids()
    height, width = picture.shape
    x = np.clip(((centroid[:, 0] - xmin) / (xmax - xmin) * width).astype(np.int64), 0, width - 1)
    y = np.clip(((centroid[:, 1] - ymin) / (ymax - ymin) * height).astype(np.int64), 0, height - 1)
    return picture[y, x].reshape(mask_shape(grid.kind, grid.shape))


def mask_to_text(mask: np.ndarray) -> str:
    """A text template for a 2-D mask (``X`` disabled, ``.`` enabled); 3-D masks give one block per level.

    >>> print(mask_to_text(np.array([[True, False], [True, True]])))
    .X
    ..
    """
    mask = np.asarray(mask, dtype=bool)
    if mask.ndim == 3:
        return "\n\n".join(mask_to_text(level) for level in mask)
    if mask.ndim != 2:
        raise BlockmazeError("only a 2-D or 3-D mask can be written as text")
    return "\n".join("".join("." if on else OFF for on in row) for row in mask)


# --- connectivity -----------------------------------------------------------------------------

def components(grid: Grid) -> tuple[np.ndarray, int]:
    """``(labels, count)``: each enabled cell's connected region (0..count-1), -1 for disabled cells.

    Regions are numbered in order of their lowest cell index.

    >>> from blockmaze.grids import square_grid
    >>> components(square_grid(1, 3, mask=[[True, False, True]]))[0].tolist()
    [0, -1, 1]
    """
    labels, count = label_regions(grid.neighbors, grid.enabled)
    return labels, int(count)


def regions(grid: Grid) -> list[np.ndarray]:
    """The connected regions of the enabled cells, largest first, each as a mask for the constructor.

    >>> from blockmaze.grids import square_grid
    >>> [m.astype(int).tolist() for m in regions(square_grid(1, 4, mask=[[True, False, True, True]]))]
    [[[0, 0, 1, 1]], [[1, 0, 0, 0]]]
    """
    labels, count = components(grid)
    sizes = np.bincount(labels[labels >= 0], minlength=count)
    order = sorted(range(count), key=lambda label: (-sizes[label], label))
    target = mask_shape(grid.kind, grid.shape)
    return [(labels == label).reshape(target) for label in order]


def check_connected(grid: Grid) -> Grid:
    """``grid`` itself if its enabled cells form one connected region, else a BlockmazeError.

    >>> from blockmaze.grids import square_grid
    >>> check_connected(square_grid(1, 3, mask=[[True, False, True]]))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: the mask leaves 2 separate regions (of 1, 1 cells); ...
    """
    if grid.enabled_count == 0:
        raise BlockmazeError("the mask disables every cell; a maze needs at least one enabled cell")
    labels, count = components(grid)
    if count > 1:
        sizes = sorted(np.bincount(labels[labels >= 0]).tolist(), reverse=True)
        shown = ", ".join(map(str, sizes[:5])) + (", ..." if count > 5 else "")
        raise BlockmazeError(
            f"the mask leaves {count} separate regions (of {shown} cells); one maze needs one "
            "connected region: join the regions in the mask, or make one maze per region"
        )
    return grid


@overload
def masked_grid(kind: str, shape: Sequence[int], mask, split: Literal[False] = False) -> Grid: ...
@overload
def masked_grid(kind: str, shape: Sequence[int], mask, split: Literal[True]) -> list[Grid]: ...
def masked_grid(kind: str, shape: Sequence[int], mask, split: bool = False) -> Grid | list[Grid]:
    """The ``kind`` grid of ``shape`` with ``mask``, checked to be one connected region.

    With ``split=True``, a list of grids instead, one per connected region (largest first), so
    the caller can generate one maze per region.

    >>> m = mask_from_text("..X..")
    >>> [g.enabled_count for g in masked_grid("square", (1, 5), m, split=True)]
    [2, 2]
    """
    grid = _build(kind, shape, mask=mask)
    if grid.enabled_count == 0:
        raise BlockmazeError("the mask disables every cell; a maze needs at least one enabled cell")
    if not split:
        return check_connected(grid)
    return [_build(kind, shape, mask=region) for region in regions(grid)]
