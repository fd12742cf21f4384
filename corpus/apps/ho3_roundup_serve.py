"""Serve the corpus's Roundup tracker on 127.0.0.1:PORT (ours, not Roundup's): `ho3_roundup_serve.py ROOT PORT`.

Roundup builds every link and checks every form's origin from the tracker's web address
(`[tracker] web` in config.ini), which must carry the port; only this script knows it, so it writes
it, then serves the tracker through Roundup's WSGI handler (`roundup.cgi.wsgi_handler`, as its
installation guide's WSGI deployments do) on the standard library's threaded WSGI server, loopback
only. (roundup-server itself refuses to run as root without a user to switch to.)
"""

import re
import sys
from pathlib import Path
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

root, port = Path(sys.argv[1]), int(sys.argv[2])
sys.path.insert(0, str(root))
home = root / "corpus-tracker"
ini = home / "config.ini"
text = ini.read_text(encoding="utf-8")
text = re.sub(r"(?m)^web = .*$", f"web = http://127.0.0.1:{port}/", text, count=1)
ini.write_text(text, encoding="utf-8")

from roundup.cgi.wsgi_handler import RequestDispatcher  # noqa: E402


class ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        sys.stderr.write(f"{self.address_string()} {format % args}\n")


app = RequestDispatcher(str(home))
server = make_server("127.0.0.1", port, app, server_class=ThreadingWSGIServer, handler_class=QuietHandler)
print(f"roundup on http://127.0.0.1:{port}/", flush=True)
server.serve_forever()
