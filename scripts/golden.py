"""Record what every command writes and says, then compare a later run with it: the proof that
a change of design kept behaviour (the same bytes, the same lines, the same refusals).

    python scripts/golden.py record /tmp/golden.json          # before the change
    python scripts/golden.py compare /tmp/golden.json         # after it: lists every difference

What is recorded, case by case:

* the generated matrix of combinations (``tests/matrix.py``: the pairwise cover and every
  ``--every``-th case of the full product), each run through :func:`blockmaze.jobs.run` in a
  fresh folder: the files written (their names and SHA-256), the lines the run says, the
  warnings, and the refusal's type and message;
* every ``blockmaze`` command of the README and the docs, run as a user types it (in a shell,
  in a fresh folder; a seed the command would draw is fixed): the exit code, standard output's
  SHA-256, standard error, and the files.

Folder names are replaced by ``<out>`` so two runs compare.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

SEED = 12345  # the seed a command that draws one gets here
SHIM = f"""#!{sys.executable}
import sys
import blockmaze.support.randomness as randomness
randomness.draw_seed = lambda: {SEED}
from blockmaze.cli import main
sys.exit(main())
"""


def _files(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _clean(text: str, *folders: Path) -> str:
    for folder in folders:
        text = text.replace(str(folder), "<out>")
    return text


def matrix_cases(every: int) -> dict[str, dict]:
    """What each matrix case writes and says, by the case's id."""
    import matrix

    from blockmaze import jobs

    cases = {c.id: c for c in matrix.pairwise()}
    for i, case in enumerate(matrix.full_product()):
        if i % every == 0:
            cases.setdefault(case.id, case)
    found = {}
    for name, case in sorted(cases.items()):
        root = Path(tempfile.mkdtemp(prefix="golden-"))
        source, out = root / "source", root / "out"
        source.mkdir()
        out.mkdir()
        said: list[str] = []
        record: dict = {}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                command, values = matrix.job_values(case, out / matrix.output_name(case.format),
                                                    source)
                done = jobs.run(command, **values, say=said.append)
                record["volume"] = None if done.volume is None else list(done.volume.shape)
                record["text"] = done.text
                record["paths"] = sorted(_clean(str(p), root) for p in done.paths)
                record["companions"] = sorted(_clean(str(p), root) for p in done.companions)
            except Exception as error:  # noqa: BLE001 (a refusal is a result)
                record["error"] = f"{type(error).__name__}: {_clean(str(error), root)}"
        record["said"] = [_clean(line, root) for line in said]
        record["warned"] = [_clean(str(w.message), root) for w in caught]
        record["files"] = _files(out)
        found[name] = record
        shutil.rmtree(root, ignore_errors=True)
    return found


def documented_commands() -> dict[str, dict]:
    """What each ``blockmaze`` command of the README and the docs writes and says."""
    from test_docs import PAGES, shell_examples

    bin_folder = Path(tempfile.mkdtemp(prefix="golden-bin-"))
    (bin_folder / "blockmaze").write_text(SHIM)
    (bin_folder / "blockmaze").chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_folder}{os.pathsep}{os.environ['PATH']}"}
    found = {}
    for page in PAGES:
        folder = Path(tempfile.mkdtemp(prefix="golden-docs-"))
        (folder / "samples").mkdir()
        for _, command, _ in shell_examples(page):
            before = _files(folder)
            done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=folder, env=env,
                                  capture_output=True, timeout=300)
            after = _files(folder)
            key = f"{page.relative_to(ROOT)}:{command}"
            found[key] = {"code": done.returncode,
                          "stdout": hashlib.sha256(done.stdout).hexdigest(),
                          "stderr": _clean(done.stderr.decode("utf-8", "replace"), folder),
                          "files": {k: v for k, v in after.items() if before.get(k) != v}}
        shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(bin_folder, ignore_errors=True)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("record", "compare"))
    parser.add_argument("path")
    parser.add_argument("--every", type=int, default=40,
                        help="also every N-th case of the full product (default 40)")
    parser.add_argument("--no-docs", action="store_true", help="leave the docs' commands out")
    args = parser.parse_args()
    now = {"matrix": matrix_cases(args.every)}
    if not args.no_docs:
        now["docs"] = documented_commands()
    if args.action == "record":
        Path(args.path).write_text(json.dumps(now, indent=1, sort_keys=True))
        print(f"recorded {len(now['matrix'])} matrix cases and {len(now.get('docs', {}))} "
              f"documented commands in {args.path}")
        return 0
    before = json.loads(Path(args.path).read_text())
    differences = 0
    for part, cases in now.items():
        for name in sorted(set(cases) | set(before.get(part, {}))):
            old, new = before.get(part, {}).get(name), cases.get(name)
            if old != new:
                differences += 1
                print(f"[{part}] {name}\n  before: {json.dumps(old)[:600]}\n  after:  "
                      f"{json.dumps(new)[:600]}")
    counted = sum(len(cases) for cases in now.values())
    print(f"{differences} of {counted} cases differ")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
