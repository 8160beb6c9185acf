"""PDF output and print pictures: read back by pypdf (pages, sizes, text), qpdf --check, and
poppler's pdftoppm renderings compared cell by cell with the maze's walls and its PNG; sheets
taped at their marks give the one-page maze; the drawn solution never crosses a wall."""

from __future__ import annotations

import io
import subprocess

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from blockmaze.cli import main
from blockmaze.export.paper import MM, OVERLAP, layout, page_size
from blockmaze.export.pdf import SCENE_CELL, write_book, write_pdf
from blockmaze.export.picture_scene import BACKGROUND, PRINT, WALL, _Builder, _scene, contrast
from blockmaze.export.pictures import render_image
from blockmaze.mazes.documents import MazeDocument
from blockmaze.pipeline import make_maze

from readers import module, program

# every grid kind whose walls are its cells' edges (a weave maze's rooms are inset)
EDGE_KINDS = {"square": (7, 9), "hex": (6, 7), "triangle": (6, 9), "upsilon": (6, 6),
              "polar": (5,)}
ALL_KINDS = {**EDGE_KINDS, "weave": (7, 7), "layered": (2, 5, 5)}
DPI = 150


def document(kind: str, seed: int = 4, size=None) -> MazeDocument:
    made = make_maze(size or ALL_KINDS[kind], kind, seed=seed)
    return MazeDocument(made.maze, made.endpoints, "backtracker", seed)


def pdf_bytes(doc: MazeDocument, **options) -> bytes:
    out = io.BytesIO()
    write_pdf(doc, out, None, **options)
    return out.getvalue()


def edge_samples(doc: MazeDocument, cell: float = SCENE_CELL):
    """The middle of every cell's every side in scene pixels (SCENE_CELL; an arc's middle
    edge), and whether that side is a wall."""
    maze = doc.maze
    endpoints = doc.endpoints
    builder = _Builder(maze, "walls", cell, None, endpoints, False, None, list(range(6)))
    cell, j = np.nonzero(builder.own)
    side = builder.sides[cell, j]
    run = np.flatnonzero(np.r_[True, (cell[1:] != cell[:-1]) | (side[1:] != side[:-1])])
    ends = np.r_[run[1:], cell.size]
    pick = (run + ends - 1) // 2  # the middle edge of each run of one side
    cell, j = cell[pick], j[pick]
    middle = (builder.points[cell, j] + builder.next_points[cell, j]) / 2
    wall = ~builder.linked[cell, j] & ~builder.opened[cell, j]
    return middle, wall


def dark(picture: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Whether the 3x3 pixels round each point hold ink (any channel below half)."""
    x, y = np.rint(xy[:, 0]).astype(int), np.rint(xy[:, 1]).astype(int)
    found = np.zeros(len(xy), dtype=bool)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            found |= picture[y + dy, x + dx].min(axis=-1) < 128
    return found


def test_a_pdf_is_read_back_by_pypdf_pages_size_and_text():
    pypdf = module("pypdf", "pypdf")
    doc = document("hex", seed=12)
    data = pdf_bytes(doc, page="letter", answers=True)
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 2
    box = reader.pages[0].mediabox
    assert sorted((round(float(box.width)), round(float(box.height)))) == [612, 792]
    text = reader.pages[0].extract_text()
    assert "hex maze, 6x7 cells" in text and "seed 12" in text
    assert "Answer" in reader.pages[1].extract_text()
    assert data == pdf_bytes(doc, page="letter", answers=True)  # the same bytes again
    assert len(pypdf.PdfReader(io.BytesIO(pdf_bytes(doc, sheets=(3, 2)))).pages) == 6


def test_a_page_is_turned_to_landscape_where_the_maze_is_wider():
    pypdf = module("pypdf", "pypdf")
    wide = document("square", size=(10, 40))
    box = pypdf.PdfReader(io.BytesIO(pdf_bytes(wide, page="210x297mm"))).pages[0].mediabox
    assert float(box.width) > float(box.height)
    assert round(float(box.width) / MM) == 297


def test_a_book_numbers_its_pages_and_gathers_the_answers_at_the_back(tmp_path):
    pypdf = module("pypdf", "pypdf")
    out = tmp_path / "book.pdf"
    assert main(["book", "generate", "12x12", "-s", "5", "--pages", "6", "--page", "6x9in",
                 "--bleed", "-o", str(out)]) == 0
    reader = pypdf.PdfReader(str(out))
    assert len(reader.pages) == 6 + 2  # four answers a page
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / 72, 3), round(float(box.height) / 72, 3)) == (6.125, 9.25)
    texts = [page.extract_text() for page in reader.pages]
    assert all(str(n) in texts[n - 1].split() for n in range(1, 9))  # page numbers
    assert "seed 5" in texts[0] and "seed 10" in texts[5]
    assert "Answer 1" in texts[6] and "Answer 5" in texts[7]
    # sizes rise page by page, up to the size given on the last
    assert "square 4x4" in texts[0] and "square 12x12" in texts[5]


def test_a_book_rising_in_difficulty_goes_from_easy_to_hard(monkeypatch, capsys):
    """--rise difficulty: every maze the size given, each page's measured difficulty within 0.1
    of its own, rising from 0.1 to 0.9; --difficulty beside it is refused in one line."""
    import blockmaze.export.pdf as pdf

    drawn = []
    monkeypatch.setattr(pdf, "write_book", lambda documents, *a, **k: drawn.extend(documents)
                        or len(documents))
    assert main(["book", "generate", "12x12", "-s", "3", "--pages", "5", "--rise", "difficulty",
                 "-o", "unused.pdf"]) == 0
    from blockmaze.mazes import difficulty

    scores = [difficulty.measured(d.maze, d.endpoints.start, d.endpoints.goal)["score"]
              for d in drawn]
    assert [d.maze.grid.shape for d in drawn] == [(12, 12)] * 5
    assert all(abs(score - asked) <= 0.1 for score, asked in zip(scores, (.1, .3, .5, .7, .9), strict=True))
    assert scores == sorted(scores), scores
    capsys.readouterr()
    assert main(["book", "generate", "12x12", "--pages", "2", "--rise", "difficulty",
                 "--difficulty", "hard", "-o", "unused.pdf"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("args, says", [
    (["--page", "tabloid"], "is not a size"), (["--sheets", "0x2"], "COLSxROWS"),
])
def test_bad_paper_options_are_one_line_usage_errors(tmp_path, capsys, args, says):
    out = tmp_path / "m.pdf"
    assert main(["generate", "5x5", "-o", str(out), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0] and not out.exists()


def test_the_default_print_style_has_full_contrast():
    image = render_image(document("square").maze, cell_size=16).convert("RGB")
    colours = {rgb for _, rgb in image.getcolors()}
    assert colours == {(0, 0, 0), (255, 255, 255)}
    assert contrast(PRINT[WALL], PRINT[BACKGROUND]) >= 7  # WCAG AAA: 21 for black on white
    classic = render_image(document("square").maze, cell_size=16, style="classic")
    assert len(classic.convert("RGB").getcolors()) == 2 and classic.getpixel((8, 8)) == WALL


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(ALL_KINDS)), seed=st.integers(0, 10_000),
       cell=st.sampled_from([6, 9, 12, 16, 21]))
def test_the_drawn_solution_never_crosses_a_wall_pixel(kind, seed, cell):
    """Every pixel a wall has without the solution is a wall with it (a weave maze's way under
    a bridge is drawn beneath the bridge's walls, so they stay whole)."""
    doc = document(kind, seed)
    options = dict(endpoints=doc.endpoints, cell_size=cell)
    plain = np.asarray(render_image(doc.maze, **options))
    solved = np.asarray(render_image(doc.maze, solution=True, **options))
    assert plain.shape == solved.shape
    assert int(((plain == WALL) & (solved != WALL)).sum()) == 0
    assert (solved != plain).any()  # a solution was drawn


def _render(path, tmp_path, name: str) -> list[np.ndarray]:
    pdftoppm = program("pdftoppm", "poppler-utils")
    subprocess.run([pdftoppm, "-r", str(DPI), "-png", str(path), str(tmp_path / name)],
                   check=True, timeout=120)
    pages = sorted(tmp_path.glob(f"{name}-*.png"))
    return [np.asarray(Image.open(p).convert("RGB")) for p in pages]


@pytest.mark.reader
def test_pdfs_pass_qpdf_and_poppler_renders_the_walls_of_the_maze_and_its_png(tmp_path):
    """One PDF a grid kind (answers on), and a 2x2 taped set: qpdf --check passes, pdftotext
    reads the seed, and pdftoppm's pages hold ink exactly at the walls, as the PNG does."""
    qpdf, pdftotext = program("qpdf", "qpdf"), program("pdftotext", "poppler-utils")
    for kind in EDGE_KINDS:
        doc = document(kind, seed=21)
        path = tmp_path / f"{kind}.pdf"
        path.write_bytes(pdf_bytes(doc, page="A4", answers=True))
        subprocess.run([qpdf, "--check", str(path)], check=True, capture_output=True, timeout=60)
        text = subprocess.run([pdftotext, str(path), "-"], check=True, capture_output=True,
                              text=True, timeout=60).stdout
        assert "seed 21" in text and "Answer" in text
        page, _answer = _render(path, tmp_path, kind)
        scene = _scene(doc.maze, cell_size=SCENE_CELL, endpoints=doc.endpoints)
        (sheet,) = layout(scene.width, scene.height, page_size("A4"))
        middle, wall = edge_samples(doc)
        at = np.array([sheet.to_page(x, y) for x, y in middle]) * DPI / 72
        assert (dark(page, at) == wall).all(), kind
        # the PNG of the same maze: ink at the same edges
        png = np.asarray(render_image(doc.maze, endpoints=doc.endpoints,
                                      cell_size=40).convert("RGB"))
        assert (dark(png, edge_samples(doc, 40)[0]) == dark(page, at)).all(), kind


@pytest.mark.reader
def test_taped_sheets_give_the_one_page_maze(tmp_path):
    """Four sheets of one maze: where each shows the maze (its box), its ink is the maze's
    walls; together they show every edge; the alignment marks of two neighbours stand at the
    same line of the drawing, so taped there the pictures join into the one-page picture."""
    doc = document("square", seed=8, size=(24, 30))
    path = tmp_path / "sheets.pdf"
    path.write_bytes(pdf_bytes(doc, page="A5", sheets=(2, 2)))
    subprocess.run([program("qpdf", "qpdf"), "--check", str(path)], check=True,
                   capture_output=True, timeout=60)
    pages = _render(path, tmp_path, "sheet")
    assert len(pages) == 4
    scene = _scene(doc.maze, cell_size=SCENE_CELL, endpoints=doc.endpoints)
    sheets = layout(scene.width, scene.height, page_size("A5"), sheets=(2, 2))
    middle, wall = edge_samples(doc)
    seen = np.zeros(len(middle), dtype=bool)
    for sheet, picture in zip(sheets, pages, strict=True):
        at = np.array([sheet.to_page(x, y) for x, y in middle])
        left, top, width, height = sheet.box
        inside = ((at[:, 0] > left + 2) & (at[:, 0] < left + width - 2)
                  & (at[:, 1] > top + 2) & (at[:, 1] < top + height - 2))
        assert (dark(picture, at[inside] * DPI / 72) == wall[inside]).all(), sheet.label
        seen |= inside
    assert seen.all()  # taped, the sheets show the whole maze
    a1, b1 = sheets[0], sheets[1]
    # A1's right-hand mark and B1's left-hand one: the same x of the drawing
    right_a1 = a1.window[0] + a1.box[2] - OVERLAP / 2
    left_b1 = b1.window[0] + OVERLAP / 2
    assert abs(right_a1 - left_b1) < 1e-6
    for sheet, picture, x in ((a1, pages[0], a1.box[0] + a1.box[2] - OVERLAP / 2),
                              (b1, pages[1], b1.box[0] + OVERLAP / 2)):
        y = sheet.box[1] - 1.5 * MM  # in the margin above the box, on the mark's arm
        column = picture[int(round(y * DPI / 72)), :, 0]
        assert column[int(round(x * DPI / 72)) - 1: int(round(x * DPI / 72)) + 2].min() < 128


def test_write_book_lays_out_every_maze_and_refuses_none():
    from blockmaze.errors import BlockmazeError

    docs = [document("polar", seed=n, size=(n,)) for n in (3, 4, 5, 6, 7)]
    assert write_book(docs, io.BytesIO(), page="A5", answers=False) == 5
    with pytest.raises(BlockmazeError, match="at least one maze"):
        write_book([], io.BytesIO())
