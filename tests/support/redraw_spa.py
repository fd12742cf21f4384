"""A single-page app whose widget framework draws its controls anew on every render, served on loopback
for the browser engine: what a click finds at click time is not the nodes the page was read with.

Each render (on load, and after every click) builds new nodes with the same content in a shuffled
order, inside a container whose tag changes (`ul` or `ol`), and slides the list in with a short CSS
animation — as TiddlyWiki's story river, Backbone/Marionette views, Ember, Knockout or Elm redraw
what they show. So a structural selector read on one render names, on the next, another control or
nothing. Every control is a `<button>` whose click the page reports to the server (`GET /clicked?name=`)
before it renders again: `RedrawSpa.clicked` is what was really clicked, in order. Two `Remove` buttons
sit in rows told apart only by their rows' texts. A notification fixed over the top of the page covers
the first controls until it is put away by its close icon (a button with no words).
"""

from __future__ import annotations

from typing import ClassVar
from urllib.parse import parse_qs, urlsplit

from tests.support.loopback import QuietHandler

NAMES = ("Alpha", "Beta", "Gamma", "Delta", "Epsilon")
ROWS = ("North", "South")

APP_JS = r"""
const style = document.createElement('style');
style.textContent = '@keyframes slide { from { transform: translateX(80px); } to { transform: none; } }'
  + ' .list { animation: slide 0.3s ease-out; }'
  + ' .toast { position: fixed; top: 0; left: 0; right: 0; height: 120px; background: #ffd; z-index: 5; }';
document.head.append(style);
// A notification fixed over the top of the page, put away by its icon (a button with no words).
const toast = document.createElement('div');
toast.className = 'toast';
toast.innerHTML = '<p>Changes will be saved when the connection returns.</p>'
  + '<button type="button"><svg class="icon-close" width="12" height="12"><path d="M0 0L12 12M12 0L0 12"'
  + ' stroke="black"/></svg></button>';
toast.querySelector('button').addEventListener('click', () => toast.remove());
document.body.append(toast);
const NAMES = %NAMES%, ROWS = %ROWS%;
const app = document.getElementById('app');
let said = '';
function shuffled(xs) {
  const out = xs.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
function press(name) {
  fetch('/clicked?name=' + encodeURIComponent(name)).then(() => { said = name; render(); });
}
function button(label, name) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.addEventListener('click', () => press(name));
  return b;
}
function render() {
  const list = document.createElement(Math.random() < 0.5 ? 'ul' : 'ol');
  list.className = 'list';
  for (const name of shuffled(NAMES)) {
    const li = document.createElement('li');
    li.append(button('Open ' + name, name));
    list.append(li);
  }
  for (const row of shuffled(ROWS)) {
    const li = document.createElement('li');
    const span = document.createElement('span');
    span.textContent = row + ' row';
    li.append(span, button('Remove', 'Remove ' + row));
    list.append(li);
  }
  const shown = document.createElement('h2');
  shown.textContent = said ? 'Opened ' + said : 'Nothing opened';
  app.replaceChildren(shown, list);
}
render();
""".replace("%NAMES%", str(list(NAMES))).replace("%ROWS%", str(list(ROWS)))


class RedrawSpa(QuietHandler):
    clicked: ClassVar[list[str]] = []
    """What the page said was clicked, in order (reset by the test)."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        parts = urlsplit(self.path)
        if parts.path == "/app.js":
            return self.reply(200, APP_JS, "application/javascript")
        if parts.path == "/clicked":
            RedrawSpa.clicked.append(parse_qs(parts.query).get("name", [""])[0])
            return self.reply(200, "{}", "application/json")
        if parts.path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        self.reply(
            200,
            '<!doctype html><html><head><title>Redraw</title></head><body><div id="app"></div>'
            '<script src="/app.js"></script></body></html>',
        )
