"""Remake samples/studio.png: the studio page in headless Chromium (the README's picture).

Usage: python scripts/studio_screenshot.py [OUTPUT]   (default samples/studio.png)

Needs Chromium and chromedriver (apt-get install chromium chromium-driver) and the web and test
extras (selenium, starlette, uvicorn); it starts its own studio on a free local port.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = "/?size=16x24&seed=7&algorithm=growing-tree:0.25&solution=1&roof=0"


def main(argv: list[str]) -> int:
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from PIL import Image
    from studio_server import running_studio
    from test_studio_browser import chromium, console_errors, open_page, wait_for

    target = Path(argv[0]) if argv else ROOT / "samples" / "studio.png"
    with running_studio() as url, tempfile.TemporaryDirectory() as downloads:
        driver = chromium(downloads, 1720, 860)  # the three views side by side
        try:
            open_page(driver, url + PAGE)
            wait_for(driver, "studio.carve.shown >= studio.carve.total", timeout=30)
            errors = console_errors(driver)
            if errors:
                print("the page logged errors:", *errors, sep="\n  ", file=sys.stderr)
                return 1
            shot = Path(downloads, "shot.png")
            driver.save_screenshot(str(shot))
        finally:
            driver.quit()
        picture = Image.open(shot).convert("RGB")
        small = picture.resize((picture.width // 2, picture.height // 2), Image.LANCZOS).quantize(128)
        small.save(target, optimize=True)
    print(f"wrote {target} ({small.width}x{small.height})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
