"""Issue 47 item 6 and issue 49 item 7: ``info`` picks its reader from one table of rows (title,
the outputs of ``export.FORMATS`` it reads, a test of the first bytes, the read), and a file is
recognised by what it holds: its name only chooses among the formats its bytes fit. A file of
no format blockmaze reads, a plain folder, or a file given to ``export`` that is no maze
document, each gets one line saying what it is not and what is read instead."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blockmaze.cli import main
from blockmaze.export import FORMATS

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from test_info_bounds import write_every_format  # noqa: E402 (after the path to the tests)

PASSWD = (b"root:x:0:0:root:/root:/bin/bash\n"
          b"daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
          b"bin:x:2:2:bin:/bin:/usr/sbin/nologin\n") * 8  # > 84 bytes: was read as a binary STL


@pytest.fixture(scope="module")
def every_format(tmp_path_factory):
    return write_every_format(tmp_path_factory.mktemp("formats"))


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("Error: "), err
    return err


# --- the table --------------------------------------------------------------------------------

def test_every_suffix_written_is_read_by_one_row_that_knows_its_files_by_their_bytes(every_format):
    """Each suffix of the format table belongs to one row, and every file blockmaze writes,
    renamed to a name of no format, is still read as its own."""
    from blockmaze.readers.info import READERS, inspect_bytes, inspect_file

    claimed = [suffix for reader in READERS for suffix in reader.suffixes]
    assert len(claimed) == len(set(claimed))
    written = {suffix for row in FORMATS.values() for suffix in row.suffixes}
    assert set(claimed) == written
    for reader in READERS:
        assert set(reader.formats) <= set(FORMATS) and reader.label.startswith(reader.title + " (")
    for name, path in every_format.items():
        named = inspect_file(path)
        assert inspect_bytes(path.read_bytes(), "renamed.bin").format == named.format, name


@given(st.binary(max_size=300), st.sampled_from(sorted({s for row in FORMATS.values() for s in row.suffixes})),
       st.one_of(st.none(), st.integers(0, 1 << 20)))
def test_a_name_never_adds_a_format_the_bytes_do_not_fit(head, suffix, size):
    from blockmaze.readers.info import candidates

    assert set(candidates(head, f"m{suffix}", size)) <= set(candidates(head, "m", size))


# --- files of no format blockmaze reads: one line that says so ---------------------------------

@pytest.mark.parametrize("name, data", [("passwd", PASSWD), ("notes.txt", b"#####\n#...#\n#####\n"),
                                        ("photo.png", PASSWD), ("empty.schem", b""),
                                        ("script.obj", b"#!/bin/sh\necho hello\n")])
def test_a_file_of_no_format_read_gets_one_line_listing_what_is_read(tmp_path, capsys, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    assert main(["info", str(path)]) == 1
    err = one_line(capsys)
    assert f"{name}: not a file blockmaze reads" in err, err
    assert "STL (.stl)" in err and "Bedrock world (.mcworld)" in err and "Java world folders" in err


def test_etc_passwd_is_not_an_stl(capsys):
    if not Path("/etc/passwd").is_file() or Path("/etc/passwd").stat().st_size < 84:
        pytest.skip("no /etc/passwd of 84 bytes or more here")
    assert main(["info", "/etc/passwd"]) == 1
    err = one_line(capsys)
    assert "not a file blockmaze reads" in err and "triangles" not in err, err


def test_a_plain_folder_is_not_a_world_folder(tmp_path, capsys):
    folder = tmp_path / "saves"
    folder.mkdir()
    (folder / "notes.txt").write_text("hello")
    assert main(["info", str(folder)]) == 1
    err = one_line(capsys)
    assert "not a world folder" in err and "level.dat" in err and "not a regular file" not in err, err


@pytest.mark.parametrize("name", ["m2.schem", "t.tmj"])  # blocks, and another JSON file
def test_export_of_a_file_blockmaze_wrote_says_export_takes_a_maze_document(name, tmp_path,
                                                                            capsys):
    written = tmp_path / name
    assert main(["generate", "3x3", "--seed", "1", "-o", str(written)]) == 0
    capsys.readouterr()
    assert main(["export", str(written), "-o", str(tmp_path / "m.png")]) == 1
    err = one_line(capsys)
    assert "not a maze document" in err and "-o m.json" in err and "utf-8" not in err.lower(), err
    assert not (tmp_path / "m.png").exists()
