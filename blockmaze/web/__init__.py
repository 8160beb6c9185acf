"""blockmaze studio: a local web page to design a maze, watch it carve, see it in 3-D and
download it (``blockmaze serve``; the optional extra ``pip install 'blockmaze[web]'``).

Every download is the file the command line writes for the same options (:mod:`.jobs`).

Example
-------
>>> from blockmaze.web import require_web
>>> require_web()   # Starlette and uvicorn are installed
"""

from __future__ import annotations

from ..errors import BlockmazeError

MISSING = ("the studio needs the web extra: pip install 'blockmaze[web]' "
           "(from a checkout: pip install '.[web]')")


def require_web() -> None:
    """Raise BlockmazeError naming the extra when Starlette or uvicorn is missing."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise BlockmazeError(MISSING) from None


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, *,
          settings=None, announce=print) -> None:
    """Run the studio on ``host:port`` until stopped; say its URL first (and open it)."""
    require_web()
    import uvicorn

    from .app import Settings, create_app

    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    announce(f"blockmaze studio at {url} (Ctrl-C stops it)")
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    uvicorn.run(create_app(settings or Settings()), host=host, port=port, log_level="warning")
