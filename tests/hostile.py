"""A corpus of hostile files for ``blockmaze info``, made by code (nothing binary is committed).

Each entry is ``name -> (file name, bytes)``: lies about lengths, gzip bombs (built as many
small gzip members, which gzip readers join, so a bomb costs kilobytes to make), deep nesting,
a datapack of endless lines, and the like. ``bench/bench_info.py`` and ``tests/test_info_bounds.py``
run ``info`` on every one in a subprocess and measure its time and peak memory.
"""

from __future__ import annotations

import gzip
import io
import struct
import zipfile
import zlib

MIB = 1 << 20


def _name(text: str) -> bytes:
    raw = text.encode()
    return struct.pack(">H", len(raw)) + raw


def tag(kind: int, name: str, payload: bytes) -> bytes:
    """A named big-endian NBT tag."""
    return bytes([kind]) + _name(name) + payload


def _int(value: int) -> bytes:
    return struct.pack(">i", value)


def zeros_gzip(count_mib: int) -> bytes:
    """``count_mib`` MiB of zero bytes as gzip members of 1 MiB each (cheap to make)."""
    return gzip.compress(bytes(MIB), 9, mtime=0) * count_mib


def gz(raw: bytes) -> bytes:
    return gzip.compress(raw, 6, mtime=0)


def _palette_entry(name: str) -> bytes:
    return tag(8, "Name", _name(name)) + b"\x00"


def _litematic(size: tuple[int, int, int], longs_declared: int, body: bytes) -> bytes:
    region = (tag(10, "Size", tag(3, "x", _int(size[0])) + tag(3, "y", _int(size[1]))
                  + tag(3, "z", _int(size[2])) + b"\x00")
              + tag(9, "BlockStatePalette", b"\x0a" + _int(2) + _palette_entry("minecraft:air")
                    + _palette_entry("minecraft:stone"))
              + b"\x0c" + _name("BlockStates") + _int(longs_declared))
    head = b"\x0a" + _name("") + tag(3, "Version", _int(6)) + b"\x0a" + _name("Regions") + b"\x0a" + _name("r") + region
    return head + body


def corpus() -> dict[str, tuple[str, bytes]]:
    """Every hostile file: name -> (file name, bytes)."""
    files: dict[str, tuple[str, bytes]] = {}
    # lengths that lie: far more than the bytes behind them
    files["litematic-huge-declared-longs"] = ("h.litematic", gz(_litematic((1024, 1024, 1024), 2**31 - 1, bytes(64))))
    files["litematic-huge-size"] = ("h.litematic", gz(_litematic((2**30, 2**30, 2**30), 2**25, bytes(64))))
    # consistent but enormous: 2**29 blocks of 2 bits = 2**24 longs = 128 MiB of zeros, counted
    files["litematic-zero-bomb"] = ("h.litematic", gz(_litematic((512, 1024, 1024), 2**24, b""))
                                    + zeros_gzip(128) + gz(b"\x00\x00\x00"))
    files["structure-huge-list"] = ("h.nbt", gz(b"\x0a" + _name("") + b"\x09" + _name("blocks") + b"\x0a"
                                                + _int(2**31 - 1) + bytes(100)))
    files["structure-empty-compounds"] = ("h.nbt", gz(b"\x0a" + _name("") + b"\x09" + _name("blocks") + b"\x0a"
                                                      + _int(100_000_000)) + zeros_gzip(100))
    files["sponge-blockdata-bomb"] = ("h.schem", gz(b"\x0a" + _name("Schematic") + tag(3, "Version", _int(2))
                                                    + b"\x07" + _name("BlockData") + _int(2**31 - 1))
                                      + zeros_gzip(1024))
    files["gzip-bomb-zeros"] = ("h.schem", zeros_gzip(2048))
    files["list-of-empty-lists"] = ("h.nbt", gz(b"\x0a" + _name("") + b"\x09" + _name("x") + b"\x09"
                                                + _int(50_000_000) + (b"\x00" + _int(0)) * 1000) + zeros_gzip(256))
    deep = b"\x0a" + _name("") + (b"\x0a" + _name("a")) * 100_000
    files["deep-compounds"] = ("h.nbt", gz(deep))
    files["deep-lists"] = ("h.nbt", gz(b"\x0a" + _name("") + b"\x09" + _name("a") + (b"\x09" + _int(1)) * 100_000))
    files["bedrock-huge-list"] = ("h.mcstructure", b"\x0a\x00\x00" + b"\x09\x04\x00size" + b"\x03" + struct.pack("<i", 2**31 - 1))
    files["json-deep"] = ("h.json", b"[" * 1_000_000)
    files["json-huge"] = ("h.json", b'{"type": "blockmaze-maze", "pad": "' + b"x" * (20 * MIB) + b'"}')
    files["document-huge-grid"] = ("h.json", b'{"type": "blockmaze-maze", "version": 1, "grid": {"kind": "square", '
                                   b'"shape": [2000000000, 2000000000]}, "links": ""}')
    files["document-5001-digit-seed"] = ("h.json", b'{"type": "blockmaze-maze", "version": 1, "grid": {"kind": '
                                         b'"square", "shape": [2, 2]}, "seed": ' + b"9" * 5001 + b', "links": "0000"}')
    files["random-bytes"] = ("h.bin", bytes((i * 7919 + 13) % 251 for i in range(1 << 16)))
    # a datapack of one endless line, and one of 2**20 short commands, each packed small
    for name, line, times in (("datapack-long-line", b"9" * MIB, 300),
                              ("datapack-many-lines", b"fill ~ ~ ~ ~ ~ ~ stone\n" * 2**14, 64)):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("pack.mcmeta", b'{"pack": {"pack_format": 48}}')
            with archive.open("data/blockmaze/function/part_1.mcfunction", "w") as member:
                member.write(b"fill ")
                for _ in range(times):
                    member.write(line)
        files[name] = ("h.zip", out.getvalue())
    stl = bytearray(84)
    stl[80:84] = struct.pack("<I", 2**32 - 1)
    files["stl-lying-count"] = ("h.stl", bytes(stl))
    files["ply-lying-count"] = ("h.ply", b"ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\n"
                                b"property float x\nproperty float y\nproperty float z\nelement face 1\n"
                                b"property list uchar uint vertex_indices\nend_header\n")
    files["glb-lying-chunk"] = ("h.glb", b"glTF" + struct.pack("<4I", 2, 2**31, 2**31 - 1, 0x4E4F534A))
    files["xp-bomb"] = ("h.xp", gz(struct.pack("<4i", -1, 1, 2**31 - 1, 2**31 - 1)) + zeros_gzip(512))
    files["npz-lying-shape"] = ("h.npz", _npz_lying())
    files["png-huge-header"] = ("h.png", b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", 2**31 - 1, 2**31 - 1, 8, 3, 0, 0, 0)))
    files["tmx-bomb"] = ("h.tmx", b'<map width="100000" height="100000"><data encoding="base64" compression="zlib">'
                         + __import__("base64").b64encode(zlib.compress(bytes(64 * MIB), 9)) + b"</data></map>")
    files.update({name: (file_name, data) for name, (file_name, data, _) in families().items()})
    return files


# --- issue 37: one crafted file per reader family, with what its refusal says ------------------

def families() -> dict[str, tuple[str, bytes, str]]:
    """name -> (file name, bytes, a phrase of the one-line refusal): each hung, ran for minutes,
    took gigabytes or crashed before issue 37."""
    found: dict[str, tuple[str, bytes, str]] = {}
    directory = "the zip's directory lists"
    for name, members in {"dp.zip": {"pack.mcmeta": b'{"pack": {"pack_format": 48}}'},
                          "m.3mf": {"3D/3dmodel.model": b"<model/>"},
                          "m.npz": {"material.npy": b"x"},
                          "m.mcpack": {"manifest.json": b"{}"},
                          "world.zip": {"World/level.dat": b"\x0a\x00\x00\x00"}}.items():
        found[f"zip-200000-members-{name}"] = (name, many_members_zip(members, 200_000), directory)
    found["vox-transform-cycle"] = ("h.vox", vox_cycle(20_000), "transforms form a cycle")
    found["tmx-open-map-tags"] = ("h.tmx", b"<map " * 48_000, "no <map> element")
    found["tmx-open-data-tags"] = ("h.tmx", b'<map width="3" height="1"><data>' + b"<data " * 40_000,
                                   "no <data>")
    found["tmx-long-attribute-name"] = ("h.tmx", b"<map " + b"a" * 240_000 + b">", "no <data>")
    found["document-polar-rings"] = ("h.json", (b'{"type": "blockmaze-maze", "version": 1, "grid": {"kind": '
                                                b'"polar", "shape": [5000]}, "links": "0000"}'),
                                     "more cells than its links")
    found["document-all-disabled"] = ("h.json", (b'{"type": "blockmaze-maze", "version": 1, "grid": {"kind": '
                                                 b'"square", "shape": [3, 3], "disabled": [0, 1, 2, 3, 4, 5, 6, 7, 8]}, '
                                                 b'"links": "000000000"}'), "no enabled cell")
    found["3mf-encrypted-member"] = ("h.3mf", patched_zip({"3D/3dmodel.model": b"<model/>"}, flag=1),
                                     "info reads no encrypted member")
    found["mcpack-compression-99"] = ("h.mcpack", patched_zip({"manifest.json": b"{}"}, method=99),
                                      "compression method 99")
    return found


def many_members_zip(members: dict[str, bytes], count: int) -> bytes:
    """A zip of ``members`` whose directory repeats the first one's entry up to ``count`` entries
    (all naming one local header; a million cost 57 bytes each and no time to make)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    raw = out.getvalue()
    end = raw.rfind(b"PK\x05\x06")
    _, _, _, listed, _, size, offset, _ = struct.unpack_from("<4s4H2LH", raw, end)
    directory = raw[offset:offset + size]
    first = directory[:46 + struct.unpack_from("<H", directory, 28)[0]]
    extra, total = count - listed, min(count, 0xFFFF)
    return (raw[:offset] + directory + first * extra
            + struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, total, total, size + len(first) * extra, offset, 0))


def patched_zip(members: dict[str, bytes], flag: int = 0, method: int | None = None) -> bytes:
    """A stored zip of ``members`` with ``flag`` set (1: encrypted) and its compression method
    replaced, in every local and central header."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    raw = bytearray(out.getvalue())
    for signature, flag_at, method_at in ((b"PK\x03\x04", 6, 8), (b"PK\x01\x02", 8, 10)):
        at = raw.find(signature)
        while at >= 0:
            raw[at + flag_at] |= flag
            if method is not None:
                struct.pack_into("<H", raw, at + method_at, method)
            at = raw.find(signature, at + 4)
    return bytes(raw)


def _vox_chunk(name: bytes, data: bytes) -> bytes:
    return name + struct.pack("<ii", len(data), 0) + data


def vox_cycle(count: int) -> bytes:
    """A .vox whose ``count`` transforms form a ring, each shape sharing a transform's id (each
    shape's walk up the scene went round the whole ring)."""
    body = b"".join([_vox_chunk(b"SIZE", struct.pack("<3i", 2, 2, 2)),
                     _vox_chunk(b"XYZI", struct.pack("<i4B", 1, 0, 0, 0, 1))]
                    + [_vox_chunk(b"nTRN", struct.pack("<6i", i + 1, 0, (i + 1) % count + 1, -1, 0, 0))
                       + _vox_chunk(b"nSHP", struct.pack("<4i", i + 1, 0, 1, 0)) for i in range(count)])
    return b"VOX " + struct.pack("<i", 150) + b"MAIN" + struct.pack("<ii", 0, len(body)) + body


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _npz_lying() -> bytes:
    header = b"{'descr': '|u1', 'fortran_order': False, 'shape': (100000, 100000), }"
    header += b" " * (63 - (10 + len(header)) % 64) + b"\n"
    npy = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header + bytes(1000)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("material.npy", npy)
    return out.getvalue()
