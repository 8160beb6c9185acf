"""PNG and SVG pictures of every grid kind agree with the maze's topology (blockmaze.export.pictures)."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PIL import Image, ImageDraw

from blockmaze import BlockmazeError, Maze, generate, place_endpoints, to_blocks
from blockmaze.grids import GRID_KINDS
from blockmaze.grids.geometry import cell_shapes
from blockmaze.materials import Material, load_theme
from blockmaze.export.pictures import RAMP, render_image, render_png, render_svg, svg_text
from blockmaze.export.picture_scene import GOAL, PRINT, SOLUTION, START

KINDS = {"square": (4, 5), "hex": (4, 5), "upsilon": (4, 5), "triangle": (4, 6), "polar": (4,),
         "layered": (2, 3, 4)}
S, W = 40, 3  # cell size and line width large enough for unambiguous pixels
WHITE, BLACK, RED = (255, 255, 255), (0, 0, 0), (255, 0, 0)
COLOURS = dict(background="#ffffff", wall="#000000", path="#ff0000")


def maze_of(kind: str, rng: int = 5) -> Maze:
    return generate(KINDS[kind], kind=kind, rng=rng)


def hexrgb(text: str) -> tuple[int, int, int]:
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


class Plane:
    """The documented plane -> pixel map: (p - bounds min) * cell_size + margin, margin =
    max(cell_size / 2, line width)."""

    def __init__(self, maze: Maze, cell_size: float = S, line: float = W):
        self.shapes = cell_shapes(maze.grid)
        xmin, ymin, _, _ = self.shapes.bounds()
        self.origin, self.s, self.margin = np.array([xmin, ymin]), cell_size, max(cell_size / 2, line)

    def px(self, p) -> tuple[int, int]:
        x, y = (np.asarray(p) - self.origin) * self.s + self.margin
        return int(round(x)), int(round(y))


def edges(maze: Maze):
    """Every polygon edge of an enabled cell: (cell, direction, neighbour, p0, p1, is_wall)."""
    shapes = cell_shapes(maze.grid)
    for i in np.flatnonzero(maze.grid.enabled).tolist():
        poly = shapes.polygon(i)
        for j in range(len(poly)):
            d = int(shapes.sides[i, j])
            nb = int(maze.grid.neighbors[i, d])
            yield i, d, nb, poly[j], poly[(j + 1) % len(poly)], not maze.links[i, d]


def wall_count(maze: Maze) -> int:
    return sum(1 for i, _, nb, _, _, wall in edges(maze) if wall and (nb < 0 or i < nb))


@pytest.mark.parametrize("kind", KINDS)
def test_wall_pixels_match_the_topology(kind):
    maze = maze_of(kind)
    image = render_image(maze, cell_size=S, wall_width=W, **COLOURS).convert("RGB")
    plane = Plane(maze)
    seen = set()
    for _, _, _, p0, p1, wall in edges(maze):
        colour = image.getpixel(plane.px((p0 + p1) / 2))
        assert colour == (BLACK if wall else WHITE)
        seen.add(wall)
    assert seen == {True, False}


@pytest.mark.parametrize("kind", KINDS)
def test_path_pixels_join_linked_centroids(kind):
    maze = maze_of(kind)
    image = render_image(maze, style="paths", cell_size=S, wall_width=W, **COLOURS).convert("RGB")
    plane = Plane(maze)
    centroids = plane.shapes.centroids()
    seen = set()
    for i, _d, nb, _, _, wall in edges(maze):
        if nb > i:
            colour = image.getpixel(plane.px((centroids[i] + centroids[nb]) / 2))
            assert colour == (WHITE if wall else RED), (i, nb)
            seen.add(wall)
    assert seen == {True, False}


@pytest.mark.parametrize("kind", KINDS)
def test_shading_runs_from_the_start_to_the_farthest_cell(kind):
    maze = maze_of(kind)
    image = render_image(maze, cell_size=S, shade=True).convert("RGB")
    plane = Plane(maze)
    centroids = plane.shapes.centroids()
    distance = maze.distances(0)  # no endpoints: the first enabled cell
    far = int(np.argmax(distance))
    assert image.getpixel(plane.px(centroids[0])) == hexrgb(RAMP[0])
    assert image.getpixel(plane.px(centroids[far])) == hexrgb(RAMP[-1])


def test_shading_with_two_colours_and_unreachable_cells_left_blank():
    maze = Maze(GRID_KINDS["hex"](3, 3))  # no passages: only the start is reachable
    ends = place_endpoints(generate((3, 3), kind="hex", rng=1))
    ends = type(ends)(4, 0)
    image = render_image(maze, cell_size=S, endpoints=ends, shade=["#102030", "#f0e0d0"],
                         **COLOURS).convert("RGB")
    plane = Plane(maze)
    centroids = plane.shapes.centroids()
    assert image.getpixel(plane.px(centroids[4])) == (0x10, 0x20, 0x30)
    assert image.getpixel(plane.px(centroids[0])) == WHITE


@pytest.mark.parametrize("kind", KINDS)
def test_openings_leave_the_outer_wall_open(kind):
    maze = maze_of(kind)
    ends = place_endpoints(maze, "entrances")
    image = render_image(maze, cell_size=S, wall_width=W, endpoints=ends, **COLOURS).convert("RGB")
    plane = Plane(maze)
    opened = set(ends.openings)
    outer = 0
    for i, d, nb, p0, p1, _wall in edges(maze):
        if nb < 0:
            colour = image.getpixel(plane.px((p0 + p1) / 2))
            assert colour == (WHITE if (i, d) in opened else BLACK)
            outer += (i, d) in opened
    assert outer >= len(opened)


@pytest.mark.parametrize("kind", KINDS)
def test_solution_runs_through_the_path_cells(kind):
    maze = maze_of(kind)
    ends = place_endpoints(maze, "entrances")
    theme = load_theme()
    image = render_image(maze, cell_size=S, endpoints=ends, solution=True, **COLOURS).convert("RGB")
    plane = Plane(maze)
    centroids = plane.shapes.centroids()
    path = maze.shortest_path(ends.start, ends.goal)
    ink = {slot: tuple(int(PRINT[slot][i:i + 2], 16) for i in (1, 3, 5))
           for slot in (START, GOAL, SOLUTION)}  # the default theme's pictures: the print look
    assert image.getpixel(plane.px(centroids[ends.start])) == ink[START]
    assert image.getpixel(plane.px(centroids[ends.goal])) == ink[GOAL]
    for cell in path[1:-1].tolist():
        assert image.getpixel(plane.px(centroids[cell])) == ink[SOLUTION]
    classic = render_image(maze, style="classic", cell_size=S, endpoints=ends, solution=True,
                           **COLOURS).convert("RGB")  # the old look: the theme's colours
    assert classic.getpixel(plane.px(centroids[ends.start])) == theme.color(Material.START)
    for cell in path[1:-1].tolist():
        assert classic.getpixel(plane.px(centroids[cell])) == theme.color(Material.PATH)


def test_layered_up_and_down_passages_are_marked():
    maze = maze_of("layered")
    image = render_image(maze, cell_size=S, wall_width=W, **COLOURS).convert("RGB")
    plane = Plane(maze)
    centroids = plane.shapes.centroids()
    up, down = maze.grid.direction("up"), maze.grid.direction("down")
    assert maze.links[:, up].any()
    for cell in range(maze.grid.size):
        above = image.getpixel(plane.px(centroids[cell] + [0, -0.25]))
        below = image.getpixel(plane.px(centroids[cell] + [0, 0.25]))
        assert above == (BLACK if maze.links[cell, up] else WHITE)
        assert below == (BLACK if maze.links[cell, down] else WHITE)


def test_square_blocks_draw_the_2n_plus_1_plan():
    maze = maze_of("square")
    ends = place_endpoints(maze, "entrances")
    image = render_image(maze, style="blocks", cell_size=S, endpoints=ends, **COLOURS).convert("RGB")
    plan = to_blocks(maze, endpoints=ends)
    block, margin = S / 2, S / 2
    for (z, x), value in np.ndenumerate(plan):
        centre = (int(margin + (x + 0.5) * block), int(margin + (z + 0.5) * block))
        assert image.getpixel(centre) == (BLACK if value == Material.WALL else WHITE)
    assert image.size == (int(margin * 2 + plan.shape[1] * block), int(margin * 2 + plan.shape[0] * block))


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "square"])
def test_blocks_fill_floors_and_leave_walls_solid(kind):
    maze = maze_of(kind)
    ends = place_endpoints(maze, "entrances")
    image = render_image(maze, style="blocks", cell_size=S, endpoints=ends, **COLOURS).convert("RGB")
    plane = Plane(maze)
    centroids = plane.shapes.centroids()
    opened = set(ends.openings)
    for cell in range(maze.grid.size):
        assert image.getpixel(plane.px(centroids[cell])) == WHITE
    sides = {}  # (cell, direction) -> the points along that side (polar sides are several edges)
    for i, d, _nb, p0, p1, wall in edges(maze):
        sides.setdefault((i, d, wall), [p0]).append(p1)
    for (i, d, wall), points in sides.items():
        mid = (points[(len(points) - 1) // 2] + points[len(points) // 2]) / 2  # middle of the side
        inside = mid + (centroids[i] - mid) * 0.15  # in the band between the edge and the floor
        open_ = not wall or (i, d) in opened
        assert image.getpixel(plane.px(inside)) == (WHITE if open_ else BLACK), (i, d)
    assert image.getpixel((1, 1)) == WHITE  # outside the maze


def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def segments(d: str) -> int:
    """Line segments in path data made of M and L commands (implicit L repeats included)."""
    total = 0
    for sub in d.split("M")[1:]:
        numbers = re.findall(r"-?[\d.]+(?:e[-+]?\d+)?", sub)
        total += len(numbers) // 2 - 1
    return total


@pytest.mark.parametrize("kind", KINDS)
def test_svg_parses_with_the_right_viewbox_and_one_segment_per_wall(kind):
    maze = maze_of(kind)
    root = parse_svg(svg_text(maze, cell_size=S, wall_width=W))
    width, height = render_image(maze, cell_size=S, wall_width=W).size
    assert root.get("viewBox") == f"0 0 {width} {height}"
    assert (root.get("width"), root.get("height")) == (str(width), str(height))
    walls = [e for e in root if e.get("class") == "walls"]
    assert len(walls) == 1
    assert segments(walls[0].get("d")) == wall_count(maze)


@pytest.mark.parametrize("style", ["walls", "paths", "blocks"])
@pytest.mark.parametrize("kind", KINDS)
def test_every_style_renders_as_valid_svg(kind, style):
    maze = maze_of(kind)
    ends = place_endpoints(maze, "entrances")
    text = svg_text(maze, style=style, endpoints=ends, solution=True, shade=True)
    root = parse_svg(text)
    classes = {e.get("class") for e in root}
    assert "background" in classes
    if style == "blocks":  # start, goal and the path are blocks of their colours
        fills = {e.get("fill") for e in root}
        assert {PRINT[START], PRINT[GOAL], PRINT[SOLUTION]} <= fills  # the print look's
    else:
        assert {"start", "goal", "solution"} <= classes


def test_svg_paths_count_one_segment_per_passage():
    maze = maze_of("polar")
    root = parse_svg(svg_text(maze, style="paths"))
    (paths,) = [e for e in root if e.get("class") == "paths"]
    assert segments(paths.get("d")) == maze.passage_count


@pytest.mark.parametrize("style", ["walls", "paths", "blocks"])
@pytest.mark.parametrize("kind", ["square", "polar", "layered"])
def test_output_is_deterministic(kind, style, tmp_path):
    maze = maze_of(kind)
    ends = place_endpoints(maze, "entrances")
    options = dict(style=style, endpoints=ends, solution=True, shade=True)
    for render, suffix in ((render_png, "png"), (render_svg, "svg")):
        first, second = io.BytesIO(), io.BytesIO()
        render(maze, first, **options)
        render(generate(KINDS[kind], kind=kind, rng=5), second, **options)
        assert first.getvalue() == second.getvalue()
        path = tmp_path / f"maze.{suffix}"
        render(maze, path, **options)
        assert path.read_bytes() == first.getvalue()
    png = (tmp_path / "maze.png").read_bytes()
    assert b"tIME" not in png and b"tEXt" not in png
    assert Image.open(io.BytesIO(png)).size == render_image(maze, **options).size


def test_a_failed_write_leaves_no_file(tmp_path):
    with pytest.raises(BlockmazeError, match="does not exist"):
        render_png(maze_of("square"), tmp_path / "missing" / "maze.png")
    assert list(tmp_path.iterdir()) == []


def test_masked_cells_stay_blank():
    from blockmaze import masked_grid

    grid = masked_grid("square", (3, 3), np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], dtype=bool))
    maze = generate(grid, rng=2)
    image = render_image(maze, cell_size=S, wall_width=W, shade=True, **COLOURS).convert("RGB")
    plane = Plane(maze)
    assert image.getpixel(plane.px([1.5, 1.5])) == WHITE
    for _, _, nb, p0, p1, _ in edges(maze):  # every edge towards the hole is a wall
        if nb < 0:
            assert image.getpixel(plane.px((p0 + p1) / 2)) == BLACK


@pytest.mark.parametrize("options, message", [
    (dict(cell_size=0.5), "cell_size"),
    (dict(cell_size=0), "cell_size"),
    (dict(cell_size=True), "cell_size"),
    (dict(cell_size="big"), "cell_size"),
    (dict(style="dots"), "unknown picture style"),
    (dict(wall_width=0), "wall_width"),
    (dict(wall="red"), "#rrggbb"),
    (dict(background=(1, 2, 300)), "0..255"),
    (dict(shade=["#ffffff"]), "two or more colours"),
    (dict(solution=True), "needs endpoints"),
    (dict(cell_size=100000), "too large"),
    (dict(theme="no-such-theme"), "no theme"),
])
def test_bad_options_raise_blockmaze_error(options, message):
    maze = maze_of("square")
    for render in (lambda: render_image(maze, **options), lambda: svg_text(maze, **options)):
        with pytest.raises(BlockmazeError, match=message):
            render()


def test_an_opening_must_be_on_the_outer_wall():
    maze = maze_of("square")
    ends = place_endpoints(maze)
    bad = type(ends)(ends.start, ends.goal, ((6, 0),))  # cell 6 is inside a 4x5 grid
    with pytest.raises(BlockmazeError, match="outer wall"):
        render_image(maze, endpoints=bad)


def draw_svg(text: str) -> Image.Image:
    """A minimal reader for the SVG this module writes (rect, circle, paths of M L H v Z), drawn
    with Pillow: an independent check that the SVG shows what the PNG shows."""
    root = parse_svg(text)
    image = Image.new("RGB", (int(root.get("width")), int(root.get("height"))))
    draw = ImageDraw.Draw(image)
    for e in root:
        tag = e.tag.split("}")[1]
        if tag == "rect":
            draw.rectangle((0, 0, image.width, image.height), fill=e.get("fill"))
        elif tag == "circle":
            x, y, r = (float(e.get(k)) for k in ("cx", "cy", "r"))
            draw.ellipse((x - r, y - r, x + r, y + r), fill=e.get("fill"))
        else:
            for points, _closed in subpaths(e.get("d")):
                xy = [round(v) for p in points for v in p]
                if e.get("fill") != "none":
                    draw.polygon(xy, fill=e.get("fill"))
                else:
                    draw.line(xy, fill=e.get("stroke"), width=round(float(e.get("stroke-width"))))
    return image


def subpaths(d: str):
    current, x, y = None, 0.0, 0.0
    for command, args in re.findall(r"([MLHVvZ])([^MLHVvZ]*)", d):
        numbers = [float(v) for v in args.replace(",", " ").split()]
        if command == "M":
            if current:
                yield current, False
            x, y = numbers[0], numbers[1]
            current = [(x, y)]
            numbers = numbers[2:]
            command = "L"
        if command == "L":
            for k in range(0, len(numbers), 2):
                x, y = numbers[k], numbers[k + 1]
                current.append((x, y))
        elif command == "H":
            x = numbers[0]
            current.append((x, y))
        elif command == "v":
            y += numbers[0]
            current.append((x, y))
        elif command == "Z":
            yield current, True
            current = None
    if current:
        yield current, False


@pytest.mark.parametrize("style", ["walls", "paths", "blocks"])
@pytest.mark.parametrize("kind", KINDS)
def test_svg_shows_what_the_png_shows(kind, style):
    maze = maze_of(kind)
    ends = place_endpoints(maze, "entrances")
    options = dict(style=style, cell_size=24, endpoints=ends, solution=True, shade=True)
    png = np.asarray(render_image(maze, **options).convert("RGB")).astype(int)
    svg = np.asarray(draw_svg(svg_text(maze, **options))).astype(int)
    assert png.shape == svg.shape
    same = np.all(np.abs(png - svg) <= 1, axis=2).mean()
    assert same > 0.95, same
