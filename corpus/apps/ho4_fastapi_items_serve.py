"""Serve the Full Stack FastAPI Template's production build and its API on one loopback origin, as
the template's frontend nginx and Traefik do: /api/v1/... is the FastAPI app, /assets/... and the
build's files are served as files, every other path gets index.html (client-side routes).

Usage: python ho4_fastapi_items_serve.py ROOT PORT
  ROOT = the template's checkout (frontend/dist from `vite build`), PORT = the loopback port.
"""

import sys
from pathlib import Path
from typing import Any


def main(root: Path, port: int) -> None:
    sys.path.insert(0, str(root / "backend"))
    import uvicorn  # type: ignore[import-not-found]
    from app.main import app  # type: ignore[import-not-found]
    from fastapi import HTTPException  # type: ignore[import-not-found]
    from fastapi.responses import FileResponse  # type: ignore[import-not-found]
    from fastapi.staticfiles import StaticFiles  # type: ignore[import-not-found]

    dist = (root / "frontend" / "dist").resolve()
    app.mount("/assets", StaticFiles(directory=dist / "assets"), name="assets")

    @app.get("/{path:path}", include_in_schema=False, tags=["frontend"])
    def single_page(path: str) -> Any:
        if path == "api" or path.startswith("api/"):
            raise HTTPException(status_code=404, detail="Not Found")
        wanted = (dist / path).resolve()
        if path and wanted.is_file() and wanted.is_relative_to(dist):
            return FileResponse(wanted)
        return FileResponse(dist / "index.html")

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), int(sys.argv[2]))
