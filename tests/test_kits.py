"""Kit scenes (.kit.glb) and Godot scenes (.tscn), read by other code than their writer:
pygltflib reads the glTF, each instance's transform is applied to its piece's open sides (the
piece's name says them) and they must land where the maze's passages are; the Khronos validator
passes the files; a user's kit is placed by its node names."""

from __future__ import annotations

import io
import math
import tempfile

import numpy as np
import pygltflib
import pytest
import readers
from hypothesis import given, settings
from hypothesis import strategies as st
from test_mesh_formats import assert_validator_passes
from test_pieces import close, open_bearings

import blockmaze as bm
from blockmaze.errors import BlockmazeError
from blockmaze.maze import Maze
from blockmaze.mazes.documents import MazeDocument
from blockmaze.pipeline import make_maze

SIDES = {"closed": "0000", "dead-end": "1000", "corridor": "1010", "corner": "1100",
         "tee": "1110", "cross": "1111"}
BEARING = {"north": 0, "east": 90, "south": 180, "west": 270}


def kit_glb(document, tmp_path, name="m.kit.glb", **options):
    path = tmp_path / name
    bm.save(document, path, **options)
    return pygltflib.GLTF2().load(str(path)), path


def instances(gltf: pygltflib.GLTF2):
    """(node name, mesh name, matrix 4x4) of every instance under the node "pieces"."""
    pieces = next(node for node in gltf.nodes if node.name == "pieces")
    found = []
    for index in pieces.children:
        node = gltf.nodes[index]
        matrix = np.eye(4)
        if node.scale:
            matrix = np.diag([*node.scale, 1.0]) @ matrix
        if node.rotation:
            x, y, z, w = node.rotation
            rotation = np.array([
                [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
            turn = np.eye(4)
            turn[:3, :3] = rotation
            matrix = turn @ matrix
        if node.translation:
            matrix[:3, 3] = node.translation
        found.append((node.name, gltf.meshes[node.mesh].name, matrix))
    return found


def world_bearing(matrix, local_bearing: float) -> float:
    """Where a piece's side facing ``local_bearing`` (clockwise from north, -Z) faces once placed."""
    turn = math.radians(local_bearing)
    direction = matrix[:3, :3] @ np.array([math.sin(turn), 0.0, -math.cos(turn)])
    return math.degrees(math.atan2(direction[0], -direction[2])) % 360


def under_sides(maze, cell: int) -> list[int]:
    """The directions of a used weave crossing's under-passage (none for another cell)."""
    grid = maze.grid
    if grid.kind != "weave" or cell not in grid.used_crossings(maze.links)[:, 0]:
        return []
    return [0, 2] if grid.crossings[cell] == 1 else [1, 3]  # under an east-west bridge: north-south


@pytest.mark.parametrize("kind, size", [("square", (5, 6)), ("layered", (2, 4, 3)),
                                        ("weave", (7, 7))])
def test_each_instance_puts_its_pieces_open_sides_where_the_maze_is_open(tmp_path, kind, size):
    options = {"weave": 1.0} if kind == "weave" else {"braid": 0.3}
    document = make_maze(size, kind, "backtracker", seed=7, **options)
    maze = document.maze
    if kind == "weave":
        assert len(maze.grid.used_crossings(maze.links)) >= 2
    gltf, _ = kit_glb(document, tmp_path)
    placed = instances(gltf)
    assert len(placed) == maze.grid.enabled_count  # one instance a cell
    cell_size = gltf.scenes[0].extras["cell_size_m"]
    rows, cols = maze.grid.shape[-2:]
    for node_name, mesh_name, matrix in placed:
        assert node_name.rsplit("_", 1)[0] == mesh_name  # the node instances its piece's mesh
        cell = int(node_name.rsplit("_", 1)[1])
        base = mesh_name.removesuffix("-updown").removesuffix("-up").removesuffix("-down")
        bits = SIDES[base.removeprefix("crossing-")]
        if base.startswith("crossing-"):  # its under-passage east-west in the canonical turn
            bits = "".join("1" if i in (1, 3) else bit for i, bit in enumerate(bits))
        opened = sorted(round(world_bearing(matrix, 90 * i)) % 360
                        for i, bit in enumerate(bits) if bit == "1")
        expected = sorted(BEARING[name] for d, name in enumerate(maze.grid.directions[:4])
                          if maze.links[cell, d] or d in under_sides(maze, cell))
        assert base.startswith("crossing-") == bool(under_sides(maze, cell))
        assert opened == expected, (node_name, opened, expected)
        x, _, z = matrix[:3, 3]  # at the cell's middle
        assert (x, z) == pytest.approx((((cell % (rows * cols)) % cols + 0.5) * cell_size,
                                        ((cell % (rows * cols)) // cols + 0.5) * cell_size))
        up, down = (maze.links[cell, 4], maze.links[cell, 5]) if kind == "layered" else (0, 0)
        assert mesh_name.endswith({(1, 0): "-up", (0, 1): "-down", (1, 1): "-updown"}.get(
            (int(up), int(down)), base))


def test_instancing_holds_every_cell_in_a_node_per_piece(tmp_path):
    document = make_maze((6, 6), "square", "backtracker", seed=2)
    gltf, path = kit_glb(document, tmp_path, instancing=True)
    pieces = next(node for node in gltf.nodes if node.name == "pieces")
    total = 0
    for index in pieces.children:
        extension = gltf.nodes[index].extensions["EXT_mesh_gpu_instancing"]
        count = gltf.accessors[extension["attributes"]["TRANSLATION"]].count
        assert gltf.accessors[extension["attributes"]["ROTATION"]].count == count
        total += count
    assert total == 36
    assert gltf.extensionsRequired == ["EXT_mesh_gpu_instancing"]


def test_navmesh_node_is_named_for_godot_and_covers_the_floor(tmp_path):
    gltf, _ = kit_glb(make_maze((3, 3), "square", "backtracker", seed=1), tmp_path,
                      navmesh=True)
    node = next(node for node in gltf.nodes if node.name == "floor-navmesh")
    accessor = gltf.accessors[gltf.meshes[node.mesh].primitives[0].indices]
    # a middle a cell and a strip each side of each of the 8 passages, two triangles each
    assert accessor.count == 3 * 2 * (9 + 8 * 2)


def box_kit(tmp_path):
    """A kit of flat boxes 4 m a side, a node a square piece, its mesh NAME-mesh (trimesh)."""
    import trimesh

    scene = trimesh.Scene()
    for name in SIDES:
        scene.add_geometry(trimesh.creation.box((4.0, 0.5, 4.0)), node_name=name,
                           geom_name=f"{name}-mesh")
    kit = tmp_path / "kit.glb"
    scene.export(kit)
    return kit


def test_a_users_kit_is_placed_by_its_node_names(tmp_path):
    kit = box_kit(tmp_path)
    document = make_maze((3, 4), "square", "backtracker", seed=3)
    gltf, _ = kit_glb(document, tmp_path, kit=str(kit))
    placed = instances(gltf)
    assert len(placed) == 12 and gltf.scenes[0].extras["cell_size_m"] == pytest.approx(4.0)
    assert {mesh for _, mesh, _ in placed} <= {f"{name}-mesh" for name in SIDES}
    tscn = tmp_path / "m.tscn"
    bm.save(document, tscn, kit=str(kit))
    assert tscn.read_text().count('type="MeshInstance"') == 12


def test_a_kit_missing_a_piece_or_a_grid_it_cannot_hold_is_refused(tmp_path):
    import trimesh

    scene = trimesh.Scene()
    scene.add_geometry(trimesh.creation.box((4.0, 0.5, 4.0)), node_name="corner")
    kit = tmp_path / "kit.glb"
    scene.export(kit)
    with pytest.raises(BlockmazeError, match="the kit has no piece named 'corridor'.*it has: corner"):
        bm.save(bm.generate((3, 3), rng=1), tmp_path / "m.kit.glb", kit=str(kit))
    for name in SIDES:
        scene.add_geometry(trimesh.creation.box((4.0, 0.5, 4.0)), node_name=name)
    scene.export(kit)
    weave = make_maze((6, 6), "weave", "backtracker", seed=4, weave=1.0)
    with pytest.raises(BlockmazeError, match="no piece named 'crossing-corridor'"):
        bm.save(weave, tmp_path / "h.kit.glb", kit=str(kit))  # a kit without crossings
    assert not list(tmp_path.glob("*.kit.glb")) and not list(tmp_path.glob("h*"))


def test_same_seed_same_bytes():
    document = MazeDocument(bm.generate((4, 4), rng=5))
    outs = []
    for _ in range(2):
        out = io.BytesIO()
        bm.save(document, out, format="kit", navmesh=True)
        outs.append(out.getvalue())
    assert outs[0] == outs[1]


@pytest.mark.reader
def test_khronos_validator_passes_kit_scenes(tmp_path):
    folder = readers.node_package("gltf-validator", "GLTF_VALIDATOR")
    files = []
    for i, (size, kind, options) in enumerate([
            ((6, 6), "square", {"navmesh": True}), ((2, 4, 4), "layered", {"navmesh": True}),
            ((5, 5), "square", {"instancing": True, "block_size": 0.5}),
            ((4, 5), "hex", {"navmesh": True}), ((4,), "polar", {"navmesh": True}),
            ((7, 7), "weave", {"navmesh": True})]):
        path = tmp_path / f"{i}.kit.glb"
        weave = {"weave": 1.0} if kind == "weave" else {}
        bm.save(make_maze(size, kind, "backtracker", seed=i, **weave), path, **options)
        files.append(str(path))
    voxel = tmp_path / "voxel.glb"  # the voxel mesh with its floor-navmesh
    bm.save(make_maze((5, 6), "square", "backtracker", seed=9), voxel, navmesh=True)
    files.append(str(voxel))
    assert_validator_passes(folder, files)


def test_the_floor_check_refuses_a_way_through_a_wall():
    from kitwalk import path_on_floor

    maze = bm.generate((1, 2), rng=1)  # two cells joined east-west
    closed = Maze(maze.grid, np.zeros_like(maze.links))
    assert path_on_floor(maze, 5.0, 4.0, [(2.5, 0, 2.5), (7.5, 0, 2.5)])
    assert not path_on_floor(closed, 5.0, 4.0, [(2.5, 0, 2.5), (7.5, 0, 2.5)])
    assert not path_on_floor(maze, 5.0, 4.0, [(2.5, 0, 2.5), (7.5, 0, 0.2)])  # the north wall


def test_the_floor_check_keeps_a_crossings_two_floors_apart():
    from kitwalk import path_on_floor

    document = make_maze((7, 7), "weave", "backtracker", seed=11, weave=1.0)
    maze = document.maze
    assert [36, 35, 37] in maze.grid.used_crossings(maze.links).tolist()  # over north-south
    under = [(2.5, 0, 27.5), (12.5, 0, 27.5)]  # west to east under cell 36's bridge
    over = [(7.5, 0, 22.5), (7.5, 0, 25), (7.5, 3, 26), (7.5, 3, 29), (7.5, 0, 30), (7.5, 0, 32.5)]
    assert path_on_floor(maze, 5.0, 4.0, under) and path_on_floor(maze, 5.0, 4.0, over)
    assert not path_on_floor(maze, 5.0, 4.0, [(2.5, 0, 27.5), (7.5, 3, 27.5)])  # up through the deck
    assert not path_on_floor(maze, 5.0, 4.0, [(7.5, 0, 22.5), (7.5, 0, 27.5)])  # into the ramp
    assert not path_on_floor(maze, 5.0, 4.0, [(2.5, 0, 22.5), (7.5, 0, 22.5)])  # a closed side


def test_the_block_floor_check_refuses_a_way_through_a_wall():
    from kitwalk import on_blocks

    maze = bm.generate((1, 2), rng=1)  # two cells joined east-west: blocks 1, 2, 3 of row 1
    closed = Maze(maze.grid, np.zeros_like(maze.links))
    assert on_blocks(maze, [(1.5, 1, 1.5), (3.5, 1, 1.5)])
    assert not on_blocks(closed, [(1.5, 1, 1.5), (3.5, 1, 1.5)])
    assert not on_blocks(maze, [(1.5, 1, 1.5), (1.5, 1, 0.5)])  # into the outer wall
    assert not on_blocks(maze, [(1.5, 2, 1.5), (3.5, 2, 1.5)])  # over the floor


def test_the_polygon_floor_check_refuses_a_way_through_a_wall():
    from kitwalk import path_through_open_sides

    from blockmaze.mazes.pieces import maze_pieces

    maze = bm.generate((2, 2), kind="hex", rng=1)
    pieces = maze_pieces(maze)
    linked = next((a, b) for a in range(4) for d, b in enumerate(maze.grid.neighbors[a].tolist())
                  if b >= 0 and maze.links[a, d])
    way = [pieces.position[linked[0]].tolist(), pieces.position[linked[1]].tolist()]
    assert path_through_open_sides(maze, pieces.cell_size, way)
    closed = Maze(maze.grid, np.zeros_like(maze.links))
    assert not path_through_open_sides(closed, pieces.cell_size, way)


@pytest.mark.parametrize("kind, size", [("hex", (4, 5)), ("triangle", (4, 6)),
                                        ("upsilon", (4, 4)), ("polar", (4,))])
def test_polygon_pieces_are_placed_on_their_cells(tmp_path, kind, size):
    """Each instance's floor, moved and turned as its node says, covers its cell's polygon; and
    where the piece's name lists its sides (not polar), they open where the maze does."""
    from blockmaze.grids.geometry import cell_shapes

    document = make_maze(size, kind, "backtracker", seed=5, braid=0.3)
    maze = document.maze
    gltf, path = kit_glb(document, tmp_path)
    blob = gltf.binary_blob()
    shapes = cell_shapes(maze.grid)
    cell_size = gltf.scenes[0].extras["cell_size_m"]
    placed = instances(gltf)
    assert len(placed) == maze.grid.enabled_count
    for node_name, mesh_name, matrix in placed:
        cell = int(node_name.rsplit("_", 1)[1])
        mesh = next(m for m in gltf.meshes if m.name == mesh_name)
        floor = next(p for p in mesh.primitives if gltf.materials[p.material].name == "floor")
        accessor = gltf.accessors[floor.attributes.POSITION]
        view = gltf.bufferViews[accessor.bufferView]
        points = np.frombuffer(blob, np.float32, accessor.count * 3,
                               view.byteOffset + (accessor.byteOffset or 0)).reshape(-1, 3)
        top = points[np.isclose(points[:, 1], 0)]
        world = (matrix @ np.column_stack([top, np.ones(len(top))]).T).T[:, [0, 2]] / cell_size
        polygon = shapes.polygon(cell)
        assert sorted(map(tuple, np.round(world, 4))) == sorted(map(tuple, np.round(polygon, 4)))
        if kind != "polar":
            bits = mesh_name.rsplit("-", 1)[1]
            opened = [world_bearing(matrix, i * 360 / len(bits)) for i, bit in enumerate(bits)
                      if bit == "1"]
            assert close(opened, open_bearings(maze, cell))


def test_an_entrance_opens_its_piece_and_the_way_is_grouped_in_godot(tmp_path):
    from blockmaze.mazes.endpoints import place_endpoints
    from blockmaze.mazes.pieces import maze_pieces

    maze = bm.generate((4, 4), rng=3)
    ends = place_endpoints(maze, "entrances")
    inside = maze_pieces(maze, place_endpoints(maze))
    opened = maze_pieces(maze, ends)
    start = int(np.flatnonzero(opened.cells == ends.start)[0])
    assert opened.opened[start].sum() == maze.links[ends.start].sum() + 1
    assert (opened.masks == inside.masks).all()  # the list's masks are the passages alone
    document = MazeDocument(maze, ends)
    bm.save(document, tmp_path / "m.tscn", solution=True)
    text = (tmp_path / "m.tscn").read_text()
    way = len(ends.route(maze))
    assert text.count('"solution" ]') + text.count('"solution", ') == way
    assert text.count('groups=[ "start"') == 1


def _ray_hits(origin, direction, triangles, far):
    """Whether the ray from ``origin`` along ``direction`` meets any of ``triangles`` (t, 3, 3)
    within ``far`` (Möller-Trumbore)."""
    a, b, c = triangles[:, 0], triangles[:, 1], triangles[:, 2]
    e1, e2 = b - a, c - a
    p = np.cross(direction, e2)
    det = (e1 * p).sum(axis=1)
    ok = np.abs(det) > 1e-9
    inv = np.where(ok, 1 / np.where(ok, det, 1), 0)
    s = origin - a
    u = (s * p).sum(axis=1) * inv
    q = np.cross(s, e1)
    v = (q * direction).sum(axis=1) * inv
    t = (e2 * q).sum(axis=1) * inv
    return bool((ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 1e-6) & (t < far)).any())


@pytest.mark.parametrize("kind, size", [("square", (4, 5)), ("hex", (3, 4)), ("layered", (2, 3, 3)),
                                        ("weave", (6, 6))])
def test_the_default_kits_walls_stand_on_the_closed_sides(tmp_path, kind, size):
    """trimesh places the scene's pieces; a ray from each cell's middle towards each side meets
    a wall within the cell where the maze is closed, and none where it is open (a weave
    crossing: under its deck, open on its under-passage's sides, shut on its bridge's)."""
    import trimesh

    from blockmaze.grids.geometry import cell_shapes

    document = make_maze(size, kind, "backtracker", seed=6, **({"weave": 1.0} if kind == "weave"
                                                                 else {}))
    maze = document.maze
    path = tmp_path / "m.kit.glb"
    bm.save(document, path)
    scene = trimesh.load(str(path), force="scene")
    placed = [scene.graph[name] for name in scene.graph.nodes_geometry]  # (transform, geometry)
    triangles = np.concatenate([scene.geometry[geometry].triangles @ matrix[:3, :3].T + matrix[:3, 3]
                                for matrix, geometry in placed])
    cell_size = 5.0
    shapes = cell_shapes(maze.grid)
    rows, cols = maze.grid.shape[-2:]
    for cell in range(maze.grid.size):
        if kind == "hex":
            polygon = shapes.polygon(cell)
            centre = polygon.mean(axis=0)
            sides = [(d, (polygon[j] + polygon[(j + 1) % len(polygon)]) / 2 - centre)
                     for j, d in enumerate(shapes.sides[cell, :len(polygon)].tolist())]
            middle, level = centre * cell_size, 0
        else:
            level, rest = divmod(cell, rows * cols)
            middle = np.array([rest % cols + 0.5, rest // cols + 0.5]) * cell_size
            sides = [(0, np.array([0, -0.5])), (1, np.array([0.5, 0])), (2, np.array([0, 0.5])),
                     (3, np.array([-0.5, 0]))]
        for d, toward in sides:
            reach = np.linalg.norm(toward) * cell_size
            direction = np.array([toward[0], 0.0, toward[1]]) / np.linalg.norm(toward)
            # (from beside the middle block, where a stair's ramp stands)
            origin = np.array([middle[0], level * 4.0 + 1.5, middle[1]]) + 0.8 * direction
            walled = _ray_hits(origin, direction, triangles, reach - 0.8)
            under = under_sides(maze, cell)
            shut = d not in under if under else d < 0 or not maze.links[cell, d]
            assert walled == shut, (kind, cell, d)
        if under_sides(maze, cell):  # the deck: 3 blocks up, 2 over the under-passage's floor
            down = np.array([0.0, -1.0, 0.0])
            top = np.array([middle[0], 3.05, middle[1]])
            below = np.array([middle[0], 1.95, middle[1]])  # just under the deck
            assert _ray_hits(top, down, triangles, 0.1)
            assert not _ray_hits(below, down, triangles, 1.9) and _ray_hits(below, down, triangles, 2)


def test_kit_with_a_glb_output_writes_the_kit_scene(tmp_path):
    """``-o maze.glb --kit KIT.glb`` (no --format) asks for the kit scene, without a warning;
    --format glb keeps the voxel mesh and warns that --kit does not apply to it."""
    import warnings

    from blockmaze.jobs import UnusedOptionWarning, run

    kit = box_kit(tmp_path)
    out = tmp_path / "maze.glb"
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnusedOptionWarning)
        run("generate", size=(3, 4), seed=3, output=str(out), kit=str(kit))
    placed = instances(pygltflib.GLTF2().load(str(out)))
    assert len(placed) == 12 and {mesh for _, mesh, _ in placed} <= {f"{n}-mesh" for n in SIDES}
    voxel = tmp_path / "voxel.glb"
    with pytest.warns(UnusedOptionWarning, match="--kit"):
        run("generate", size=(3, 4), seed=3, output=str(voxel), kit=str(kit), format_="glb")
    assert not any(node.name == "pieces" for node in pygltflib.GLTF2().load(str(voxel)).nodes)


def _regions(polygons) -> int:
    """How many pieces ``polygons`` (vertex index rows) make, joined where they share an edge."""
    parent = list(range(len(polygons)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    edges: dict = {}
    for i, polygon in enumerate(polygons):
        for a, b in zip(polygon, np.roll(polygon, -1), strict=True):
            edges.setdefault((min(a, b), max(a, b)), []).append(i)
    assert all(len(owners) <= 2 for owners in edges.values())  # an edge joins two at most
    for owners in edges.values():
        if len(owners) == 2:
            parent[root(owners[0])] = root(owners[1])
    return len({root(i) for i in range(len(polygons))})


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(1, 6), cols=st.integers(2, 6),
       braid=st.sampled_from([0.0, 0.5]))
def test_a_voxel_glbs_navmesh_is_its_floor_in_one_piece(seed, rows, cols, braid):
    """pygltflib reads ``floor-navmesh`` from the voxel .glb: a quad (two triangles) a cell and a
    passage, at the floor's top, in one piece a connected maze."""
    document = make_maze((rows, cols), "square", "backtracker", seed=seed, braid=braid)
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/m.glb"
        bm.save(document, path, navmesh=True)
        gltf = pygltflib.GLTF2().load(path)
    node = next(node for node in gltf.nodes if node.name == "floor-navmesh")
    assert gltf.nodes.index(node) in gltf.nodes[0].children
    primitive = gltf.meshes[node.mesh].primitives[0]
    blob = gltf.binary_blob()

    def read(index, dtype, width):
        accessor = gltf.accessors[index]
        view = gltf.bufferViews[accessor.bufferView]
        start = view.byteOffset + (accessor.byteOffset or 0)
        return np.frombuffer(blob, dtype, accessor.count * width, start).reshape(-1, width)

    vertices = read(primitive.attributes.POSITION, np.float32, 3)
    types = {5121: np.uint8, 5123: np.uint16, 5125: np.uint32}
    triangles = read(primitive.indices, types[gltf.accessors[primitive.indices].componentType],
                     1).reshape(-1, 3)
    maze = document.maze
    assert len(triangles) == 2 * (maze.grid.size + maze.passage_count)
    assert np.allclose(vertices[:, 1], 1.0)  # the floor layer's top
    a, b, c = (vertices[triangles[:, k]] for k in range(3))
    assert (np.cross(b - a, c - a)[:, 1] > 0).all()  # facing up
    assert _regions(triangles.tolist()) == 1


def test_navmesh_on_a_voxel_glb_whose_floor_steps_is_refused(tmp_path):
    from blockmaze.jobs import run

    out = tmp_path / "tower.glb"
    with pytest.raises(BlockmazeError, match="flat floors, and this one steps.*-o maze.kit.glb --navmesh"):
        run("generate", size=(2, 3, 3), kind="layered", seed=1, output=str(out), navmesh=True)
    assert not out.exists()
