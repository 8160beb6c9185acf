"""Everything about the package is in pyproject.toml; this only packs the documentation's
Markdown pages (docs/) into the package as blockmaze/pages/ while it builds, so the installed
program can show them (`blockmaze docs`, blockmaze/support/pages.py)."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DOCS = Path(__file__).resolve().parent / "docs"


class BuildWithPages(build_py):
    """build_py, then every docs/**/*.md copied under blockmaze/pages/ in the build."""

    def run(self):
        super().run()
        target = Path(self.build_lib) / "blockmaze" / "pages"
        for page in sorted(DOCS.rglob("*.md")):
            copy = target / page.relative_to(DOCS)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(page, copy)


setup(cmdclass={"build_py": BuildWithPages})
