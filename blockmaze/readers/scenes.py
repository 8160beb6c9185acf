"""``info`` for Godot 3 text scenes (.tscn): its nodes by type and its resources.

Example
-------
>>> import io, blockmaze as bm
>>> out = io.BytesIO(); bm.save(bm.generate((2, 2), rng=1), out, format="tscn")
>>> read_tscn(io.BytesIO(out.getvalue())).details["nodes"]
'CollisionShape 4, MeshInstance 4, Navigation 1, NavigationMeshInstance 1, Spatial 2, StaticBody 4'
"""

from __future__ import annotations

import re
from collections import Counter
from typing import BinaryIO

from ..errors import BadFileError
from .base import FileInfo, read_whole

_HEAD = re.compile(rb"^\[gd_scene( [a-z_]+=\S+)*\]")
_SECTION = re.compile(rb'^\[(node|sub_resource|ext_resource)\b[^\n]*?type="([A-Za-z0-9_]+)"', re.M)


def read_tscn(file: BinaryIO) -> FileInfo:
    """Summarise a Godot text scene; BadFileError if it does not start as one."""
    data = read_whole(file, "a Godot scene")
    if not _HEAD.match(data):
        raise BadFileError("not a Godot text scene: it does not start [gd_scene ...]")
    kinds: dict[bytes, Counter] = {b"node": Counter(), b"sub_resource": Counter(),
                                   b"ext_resource": Counter()}
    for section, kind in _SECTION.findall(data):
        kinds[section][kind.decode()] += 1
    if not kinds[b"node"]:
        raise BadFileError("a Godot text scene without a node")
    shown: dict[str, object] = {name: ", ".join(f"{k} {n}" for k, n in sorted(counts.items()))
             for name, counts in (("nodes", kinds[b"node"]), ("resources", kinds[b"sub_resource"]))}
    version = re.search(rb"format=(\d+)", data[:200])
    return FileInfo(f"Godot text scene (.tscn, format {version.group(1).decode() if version else '?'})",
                    None, None, {}, shown)


__all__ = ["read_tscn"]
