"""A realtime app served on loopback (aiohttp): its login form and every view come only over a channel —
a plain WebSocket at `/live` (JSON messages `{"op", "id", "args"}` answered `{"re", "ok"|"error"}`)
for the pages under `/ws/`, an engine.io-style long-poll at `/rt/?EIO=4&transport=polling` (socket.io
packets: `42<id>["event", args]` answered `43<id>[…]`, GETs held open up to `HOLD_S`) for those under
`/lp/`. Views are hash routes: `#/items` (each with an unconfirmed "Delete item" that sends
`deleteItem`), `#/items/<n>`, `#/people`, `#/people/<n>` and `#/notes`.

Planted (`PLANTED`): person 2's record is answered with an error over the channel (a server error), a
note's text is shown unescaped (a stored script), and "Delete item" sends its event at once. The login
(`USER`/`PASSWORD`) answers a token the page keeps in local storage, resumed on every load.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

USER, PASSWORD = "ann", "s3cret-pass"
HOLD_S = 20.0
UNANSWERED = frozenset({"never", "ticks"})
"""Events the server never answers (`ticks` floods the WebSocket instead)."""
PLANTED = {
    "channel_error": "client_error",
    "click_channel_error": "server_error",
    "unescaped": "unescaped_script",
    "destructive": "unconfirmed_destructive",
}
"""Each planted bug and the kind of finding it makes (one each, nothing else)."""
ERRORS = ("person record query failed", "stats query failed")
"""What the two server errors answered over the channel say."""
ITEMS = [{"id": i, "name": f"Item {i}", "size": i * 3} for i in range(1, 6)]
PEOPLE = [{"id": i, "name": n} for i, n in enumerate(["Ann Archer", "Bob Baker", "Cleo Cole"], 1)]
NOTES = ["Buy milk", 'Ship it <img src=x onerror="window.__pwned=1">', "Plan the week"]

APP_JS = r"""
const app = document.getElementById('app');
const MODE = location.pathname.startsWith('/lp') ? 'lp' : 'ws';
let nextId = 1; const waiting = {};
function esc(s) { return String(s).replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c])); }
// --- the channel: send(event, args) answers a promise ---
let send, ready;
if (MODE === 'ws') {
  const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/live');
  let hello; ready = new Promise(ok => { hello = ok; });  // the server's greeting, not the socket's opening
  ws.onmessage = (e) => { const m = JSON.parse(e.data); if (m.op === 'hello') { hello(); } if (m.re && waiting[m.re]) { waiting[m.re](m); delete waiting[m.re]; } };
  send = (op, args) => new Promise(ok => { const id = nextId++; waiting[id] = ok; ws.send(JSON.stringify({op, id, args})); });
} else {
  let sid = null, connected;
  const acked = new Promise(ok => { connected = ok; });
  const base = '/rt/?EIO=4&transport=polling';
  const post = (packets) => fetch(base + '&sid=' + sid, {method: 'POST', body: packets.join('\x1e')});
  const poll = async () => {
    for (;;) {
      const r = await fetch(base + '&sid=' + sid + '&t=' + Date.now());
      if (!r.ok) { return; }
      for (const p of (await r.text()).split('\x1e')) {
        if (p.startsWith('40')) { connected(); }
        const m = /^43(\d+)(.*)$/.exec(p);
        if (m && waiting[m[1]]) { const a = JSON.parse(m[2])[0]; waiting[m[1]](a); delete waiting[m[1]]; }
      }
    }
  };
  ready = fetch(base + '&t=' + Date.now()).then(r => r.text()).then(t => { sid = JSON.parse(t.slice(1)).sid; post(['40']); poll(); }).then(() => acked);
  send = (op, args) => new Promise(ok => { const id = nextId++; waiting[id] = ok; post(['42' + id + JSON.stringify([op, args])]); });
}
const ask = (op, args) => send(op, Object.assign({token: localStorage.getItem('rt-token')}, args || {}));
function loginForm(message) {
  app.innerHTML = '<h1>Sign in</h1>' + (message ? '<p class="err">' + esc(message) + '</p>' : '') +
    '<form id="login"><label>User <input name="username"></label>' +
    '<label>Password <input type="password" name="password"></label><button>Sign in</button></form>';
  document.getElementById('login').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = e.target;
    const a = await send('login', {username: f.username.value, password: f.password.value});
    if (a.error) { loginForm(a.error); return; }
    localStorage.setItem('rt-token', a.ok.token);
    if (!location.hash) { location.hash = '#/items'; }
    route();
  });
}
function nav() {
  return '<nav><a href="#/items">Items</a> <a href="#/people">People</a> <a href="#/notes">Notes</a></nav>';
}
async function route() {
  const parts = (location.hash || '#/items').slice(2).split('/');
  const view = parts[0] || 'items', id = parts[1];
  let html = nav();
  if (view === 'items' && !id) {
    const a = await ask('listItems');
    html += '<h1>Items</h1><ul class="items">' + a.ok.map(i => '<li><a href="#/items/' + i.id + '">' + esc(i.name) +
      '</a> <button type="button" class="del" data-id="' + i.id + '">Delete item</button></li>').join('') + '</ul>';
  } else if (view === 'items') {
    const a = await ask('getItem', {id: Number(id)});
    html += a.error ? '<p>No such item</p>' : '<h1>' + esc(a.ok.name) + '</h1><p>Size ' + a.ok.size + '</p>';
  } else if (view === 'people' && !id) {
    const a = await ask('listPeople');
    html += '<h1>People</h1><ul>' + a.ok.map(p => '<li><a href="#/people/' + p.id + '">' + esc(p.name) + '</a></li>').join('') + '</ul>' +
      '<button type="button" class="stats">Show stats</button><p id="stats"></p>';
  } else if (view === 'people') {
    const a = await ask('getPerson', {id: Number(id)});
    html += a.error ? '<h1>Person</h1><p>Could not load this person.</p>' : '<h1>' + esc(a.ok.name) + '</h1><p>Person ' + a.ok.id + '</p>';
  } else if (view === 'waiting') {
    ask('never');  // an event the server never answers: the page is read all the same
    html += '<h1>Waiting</h1><p>Asked.</p>';
  } else if (view === 'ticks') {
    html += '<h1>Ticks</h1><p id="ticks">0</p>';
    ask('ticks');  // the server floods the channel from now on
  } else if (view === 'notes') {
    const a = await ask('listNotes');
    html += '<h1>Notes</h1><div class="comments">' + a.ok.map(n => '<p class="comment">Note: ' + n + ' (kept)</p>').join('') + '</div>';
  } else {
    html += '<h1>Not found</h1>';
  }
  app.innerHTML = html;
  for (const b of app.querySelectorAll('button.stats')) {
    b.addEventListener('click', async () => {
      const a = await ask('peopleStats');
      document.getElementById('stats').textContent = a.error ? 'Stats unavailable' : a.ok.count + ' people';
    });
  }
  for (const b of app.querySelectorAll('button.del')) {
    b.addEventListener('click', async () => { await ask('deleteItem', {id: Number(b.dataset.id)}); route(); });
  }
}
window.addEventListener('hashchange', route);
app.textContent = 'Connecting…';
ready.then(async () => {
  const token = localStorage.getItem('rt-token');
  const a = token ? await send('resume', {token}) : {error: 'no token'};
  if (a.error) { loginForm(); } else { route(); }
});
"""

SHELL = (
    "<!doctype html><html><head><meta charset=utf-8><title>Realtime board</title></head>"
    '<body><div id="app"></div><script src="/app.js"></script></body></html>'
)


@dataclass
class RealtimeSite:
    """The app's state: tokens handed out, deletes and events received (what reached the server)."""

    tokens: set[str] = field(default_factory=set)
    deleted: list[int] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    polls: dict[str, asyncio.Queue[str]] = field(default_factory=dict)

    def answer(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        self.events.append(op)
        if op == "login":
            if args.get("username") == USER and args.get("password") == PASSWORD:
                token = secrets.token_hex(8)
                self.tokens.add(token)
                return {"ok": {"token": token}}
            return {"error": "wrong user or password"}
        if op == "resume":
            return {"ok": True} if args.get("token") in self.tokens else {"error": "no session"}
        if args.get("token") not in self.tokens:
            return {"error": "not logged in"}
        if op == "listItems":
            return {"ok": [i for i in ITEMS if i["id"] not in self.deleted]}
        if op == "getItem":
            found = [i for i in ITEMS if i["id"] == args.get("id")]
            return {"ok": found[0]} if found else {"error": "no such item", "status": 404}
        if op == "listPeople":
            return {"ok": PEOPLE}
        if op == "getPerson":
            if args.get("id") == 2:  # planted: the record's query fails on the server
                return {"error": "person record query failed: division by zero", "status": 500}
            return {"ok": next((p for p in PEOPLE if p["id"] == args.get("id")), PEOPLE[0])}
        if op == "peopleStats":  # planted: fails on the server, asked by a click in place
            return {"error": "stats query failed: no such column", "status": 500}
        if op == "listNotes":
            return {"ok": NOTES}
        if op == "deleteItem":
            self.deleted.append(int(args.get("id", 0)))
            return {"ok": True}
        return {"error": "unknown event"}

    # -- HTTP --------------------------------------------------------------------------------------
    async def shell(self, request: web.Request) -> web.Response:
        return web.Response(text=SHELL, content_type="text/html")

    async def script(self, request: web.Request) -> web.Response:
        return web.Response(text=APP_JS, content_type="application/javascript")

    async def live(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": "hello"}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            m = json.loads(msg.data)
            op = m.get("op", "")
            if op == "ticks":
                asyncio.ensure_future(self._flood(ws))
            if op not in UNANSWERED:
                await ws.send_str(json.dumps({"re": m.get("id"), **self.answer(op, m.get("args") or {})}))
        return ws

    async def _flood(self, ws: web.WebSocketResponse) -> None:
        n = 0
        while not ws.closed:
            n += 1
            await ws.send_str(json.dumps({"op": "tick", "n": n}))
            await asyncio.sleep(0.01)

    async def rt(self, request: web.Request) -> web.Response:
        sid = request.query.get("sid")
        if sid is None:
            sid = secrets.token_hex(6)
            self.polls[sid] = asyncio.Queue()
            return web.Response(text="0" + json.dumps({"sid": sid, "upgrades": [], "pingInterval": 25000}))
        queue = self.polls.get(sid)
        if queue is None:
            return web.Response(status=400, text="unknown sid")
        if request.method == "POST":
            for packet in (await request.text()).split("\x1e"):
                if packet == "40":
                    await queue.put("40" + json.dumps({"sid": sid}))
                elif packet.startswith("42"):
                    ack, _, rest = packet[2:].partition("[")
                    op, args = json.loads("[" + rest)
                    if op in UNANSWERED:
                        continue
                    await queue.put(f"43{ack}" + json.dumps([self.answer(op, args or {})]))
            return web.Response(text="ok")
        try:
            first = await asyncio.wait_for(queue.get(), HOLD_S)
        except TimeoutError:
            return web.Response(text="6")  # noop: the client polls again
        packets = [first]
        while not queue.empty():
            packets.append(queue.get_nowait())
        return web.Response(text="\x1e".join(packets))


@contextmanager
def serving_realtime() -> Iterator[tuple[str, RealtimeSite]]:
    """The app on a free loopback port for the block: (its base URL, its state)."""
    site = RealtimeSite()
    app = web.Application()
    app.router.add_get("/app.js", site.script)
    app.router.add_get("/live", site.live)
    app.router.add_route("*", "/rt/", site.rt)
    app.router.add_get("/{tail:.*}", site.shell)
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(app, access_log=None)
    started = threading.Event()
    port: list[int] = []

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(runner.setup())
        tcp = web.TCPSite(runner, "127.0.0.1", 0, shutdown_timeout=0.1)
        loop.run_until_complete(tcp.start())
        port.append(tcp._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
        started.set()
        loop.run_forever()
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    if not started.wait(10):
        raise RuntimeError("the realtime test site did not start")
    try:
        yield f"http://127.0.0.1:{port[0]}", site
    finally:
        asyncio.run_coroutine_threadsafe(_stopped(runner), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)


async def _stopped(runner: web.AppRunner) -> None:
    """The site cleaned up and its pending tasks (held long-polls, floods) ended."""
    await runner.cleanup()
    tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
