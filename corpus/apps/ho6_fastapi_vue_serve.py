"""Serve fastapi-vue's production build and its API on one loopback origin: /api/... goes to the
FastAPI app (the prefix stripped, as a reverse proxy in front of it would), the build's files are
served as files, every other path gets index.html (client-side routes).

Usage: python ho6_fastapi_vue_serve.py ROOT PORT
  ROOT = the checkout's services/ folder (backend/ and frontend/dist/ from `vue-cli-service build`),
  PORT = the loopback port. The database is the one DATABASE_URL names (the seed made it).
"""

import sys
from pathlib import Path
from typing import Any

Scope = dict[str, Any]


def build_app(root: Path) -> Any:
    sys.path.insert(0, str(root / "backend"))
    from src.main import app as api  # type: ignore[import-not-found]
    from starlette.responses import FileResponse, HTMLResponse  # type: ignore[import-not-found]

    dist = (root / "frontend" / "dist").resolve()
    index = (dist / "index.html").read_bytes()

    async def dispatch(scope: Scope, receive: Any, send: Any) -> None:
        # lifespan too: the API opens its database connections on startup
        if scope["type"] != "http":
            await api(scope, receive, send)
            return
        path: str = scope["path"]
        if path == "/api" or path.startswith("/api/"):
            inner = dict(scope, path=path[4:] or "/", raw_path=(path[4:] or "/").encode())
            await api(inner, receive, send)
            return
        asset = (dist / path.lstrip("/")).resolve()
        if path != "/" and asset.is_file() and dist in asset.parents:
            await FileResponse(asset)(scope, receive, send)
            return
        await HTMLResponse(index)(scope, receive, send)

    return dispatch


if __name__ == "__main__":
    import uvicorn  # type: ignore[import-not-found]

    checkout, port = Path(sys.argv[1]).resolve(), int(sys.argv[2])
    uvicorn.run(build_app(checkout), host="127.0.0.1", port=port, log_level="warning")
