"""Serve react-microblog's production build and its API (microblog-api) on one loopback origin, as
the app's nginx does in its Dockerfile: /api/... goes to the Flask app, /static/... and the build's
files are served as files, every other path gets index.html (client-side routes).

Usage: python react_microblog_serve.py ROOT PORT
  ROOT = the react-microblog checkout (with build/ from `react-scripts build` and the API checkout
  in ROOT/backend), PORT = the loopback port.

Offline: the API's avatar_url points at gravatar.com; here it points at a path of this origin
(the image is then the SPA's page, shown broken), so no page asks another site for anything.
"""

import sys
from collections.abc import Iterable
from hashlib import md5
from pathlib import Path
from typing import Any

from werkzeug.middleware.shared_data import SharedDataMiddleware  # type: ignore[import-not-found]
from werkzeug.serving import run_simple  # type: ignore[import-not-found]
from werkzeug.wrappers import Response  # type: ignore[import-not-found]

WSGIApp = Any


def build_app(root: Path) -> WSGIApp:
    sys.path.insert(0, str(root / "backend"))
    from api.app import create_app  # type: ignore[import-not-found]
    from api.models import User  # type: ignore[import-not-found]

    def local_avatar(user: Any) -> str:
        digest = md5(user.email.lower().encode("utf-8")).hexdigest()
        return f"/avatar/{digest}?d=identicon"

    User.avatar_url = property(local_avatar)
    api = create_app()
    build = root / "build"
    index = (build / "index.html").read_bytes()

    def dispatch(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path == "/api" or path.startswith("/api/"):
            result: Iterable[bytes] = api(environ, start_response)
            return result
        page = Response(index, mimetype="text/html")
        answer: Iterable[bytes] = page(environ, start_response)
        return answer

    files = {f"/{p.name}": str(p) for p in build.iterdir() if p.is_file() and p.name != "index.html"}
    files["/static"] = str(build / "static")
    return SharedDataMiddleware(dispatch, files)


if __name__ == "__main__":
    checkout, port = Path(sys.argv[1]).resolve(), int(sys.argv[2])
    run_simple("127.0.0.1", port, build_app(checkout), threaded=True)
