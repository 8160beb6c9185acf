"""Regenerate ``blockmaze/export/minecraft/data/java_blocks.json`` from minecraft-data.

The table holds every Java block, its properties and their allowed values, for each release in
``blockmaze/export/minecraft/versions.py``, compactly: value lists are interned and each block is
stored once per span of releases over which its properties stay the same.

Get minecraft-data (MIT, the block tables extracted from the game) with npm, then run this::

    npm install --prefix /tmp/mcdata --no-audit --no-fund minecraft-data && python scripts/block_data.py /tmp/mcdata

Where minecraft-data has no table for a release, the nearest earlier release it has stands in
(the table's ``notes`` list each such case).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from blockmaze.export.minecraft.versions import RELEASES  # noqa: E402

OUT = ROOT / "blockmaze" / "export" / "minecraft" / "data" / "java_blocks.json"
_RELEASE = re.compile(r"^\d+(\.\d+)*$")


def _key(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split("."))


def data_folder(prefix: Path) -> Path:
    """minecraft-data's ``data`` folder under an npm prefix, a package folder or the folder itself."""
    for candidate in (prefix / "node_modules" / "minecraft-data" / "minecraft-data" / "data",
                      prefix / "minecraft-data" / "data", prefix / "data", prefix):
        if (candidate / "dataPaths.json").is_file():
            return candidate
    raise SystemExit(f"no minecraft-data under {prefix} (looked for dataPaths.json)")


def package_version(data: Path) -> str:
    package = data.parent.parent / "package.json"
    return json.loads(package.read_text())["version"] if package.is_file() else "unknown"


def blocks_source(paths: dict, name: str) -> tuple[str, str]:
    """(minecraft-data version standing in for release ``name``, folder of its blocks.json)."""
    known = [v for v in paths if _RELEASE.match(v) and "blocks" in paths[v] and _key(v) <= _key(name)]
    if not known:
        raise SystemExit(f"minecraft-data has no block table at or before {name}")
    used = name if name in known else max(known, key=_key)
    return used, paths[used]["blocks"]


def listed_values(tables: list[list[dict]]) -> dict[tuple[str, str, int], tuple[str, ...]]:
    """(block, property, count) -> values, from every table that lists them."""
    listed = {}
    for table in tables:
        for block in table:
            for state in block.get("states", []):
                if "values" in state:
                    key = (block["name"], state["name"], state["num_values"])
                    listed.setdefault(key, tuple(str(v) for v in state["values"]))
    return listed


def properties(block: dict, listed: dict) -> dict[str, tuple[str, ...]]:
    """A block's properties and allowed values.

    Older tables give some integer properties only a count: their values are taken from a table
    that lists the same block's property with that count, else 0..count-1 (true of the two such
    properties no table lists: the 1.13-1.16 cauldron's level and the 1.13 sign's rotation).
    """
    out = {}
    for state in block.get("states", []):
        if state["type"] == "bool":
            values = ("true", "false")
        elif "values" in state:
            values = tuple(str(v) for v in state["values"])
        elif state["type"] == "int":
            count = state["num_values"]
            values = listed.get((block["name"], state["name"], count), tuple(map(str, range(count))))
        else:
            raise SystemExit(f"{block['name']}.{state['name']}: no values listed")
        out[state["name"]] = values
    return out


def build(data: Path) -> dict:
    paths = json.loads((data / "dataPaths.json").read_text())["pc"]
    releases = sorted(RELEASES.values(), key=lambda r: r.data_version)
    names = [r.name for r in releases]
    values: list[tuple[str, ...]] = []
    spans: dict[str, list] = {}
    sources = {name: blocks_source(paths, name) for name in names}
    tables = {folder: json.loads((data / folder / "blocks.json").read_text())
              for folder in sorted({folder for _, folder in sources.values()})}
    listed = listed_values(list(tables.values()))
    used, notes = {}, []
    for index, name in enumerate(names):
        version, folder = sources[name]
        used[name] = folder.split("/", 1)[1]
        if version != name:
            notes.append(f"{name}: minecraft-data has no {name}; its table for {version} stands in")
        for block in tables[folder]:
            props = {}
            for key, allowed in properties(block, listed).items():
                if allowed not in values:
                    values.append(allowed)
                props[key] = values.index(allowed)
            history = spans.setdefault(block["name"], [])
            if history and history[-1][1] == index and history[-1][2] == props:
                history[-1][1] = index + 1  # the same block as in the release before: extend
            else:
                history.append([index, index + 1, props])
    return {
        "description": (
            "Java block states per release, generated by scripts/block_data.py from "
            "minecraft-data. 'releases' lists blockmaze's releases in order; each block (name "
            "without 'minecraft:') has spans [first, end, properties]: it exists in releases "
            "first..end-1 with those properties, each naming its allowed values by index into "
            "'values'. 'tables' gives the minecraft-data folder read for each release."
        ),
        "source": f"minecraft-data {package_version(data)} (npm package minecraft-data, MIT licence, "
                  "https://github.com/PrismarineJS/minecraft-data)",
        "releases": names,
        "tables": used,
        "notes": notes,
        "values": [list(v) for v in values],
        "blocks": {name: spans[name] for name in sorted(spans)},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("minecraft_data", type=Path, help="npm prefix (or folder) holding minecraft-data")
    parser.add_argument("-o", "--output", type=Path, default=OUT, help=f"where to write (default {OUT})")
    args = parser.parse_args(argv)
    table = build(data_folder(args.minecraft_data))
    text = json.dumps(table, separators=(",", ":"), sort_keys=False)
    args.output.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {args.output}: {len(table['blocks'])} blocks, {len(table['releases'])} releases, "
          f"{len(text)} bytes")


if __name__ == "__main__":
    main()
