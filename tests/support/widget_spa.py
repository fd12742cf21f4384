"""A single-page app with a widget framework of its own, served on loopback for the browser engine: its
navigation is made of elements no markup names as controls, and its views are mostly not addresses.

- the sections (`/boards`, `/people`, `/reports`, `/settings`) are `<span>`s whose listener (set by
  `addEventListener`, a pointer cursor from the style sheet, no role, no tabindex) calls
  `history.pushState` with a path URL (no hash) and draws the section in place;
- a board is a `<div>` card with a listener, drawn in place (the URL does not change), and its tabs are
  custom elements (`<wk-tab>`) with listeners (its Members tab drawn in its Cards tab's markup);
- a person is an `href="#"` link that opens the person's panel *beside* the ones open (a river), whose
  "Show history" is a `<span>` with a listener;
- a report is an `<li>` whose click a listener on its list handles (delegation: only its pointer cursor
  says it acts), and its "Details" a `<div>`;
- the settings' "Advanced" is a custom element whose button lives in its (open) shadow root.

Four bugs are planted three clicks deep (`PLANTED`): an uncaught TypeError on a board's Activity tab, a
person's history answering 500, a report's details answering 500 and a RangeError in the advanced
settings' Export. Twenty views are reachable only by such controls, three deep (four sections, three
boards with three tabs, three people's panels and their histories, three reports and their details, the
advanced settings and their keys).
"""

from __future__ import annotations

from tests.support.loopback import QuietHandler

APP_JS = r"""
const style = document.createElement('style');
style.textContent = '.nav-item, .card, .more, .row, wk-tab, ul.reports li { cursor: pointer; }'
  + ' .card, .panel { display: inline-block; margin: 4px; padding: 4px; border: 1px solid #999; }'
  + ' wk-tab { display: inline-block; padding: 2px 6px; }';
document.head.append(style);

// The app's widget framework: an element, its attributes, its click handler and its children.
function w(tag, attrs, onClick, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) { e.setAttribute(k, v); }
  if (onClick) { e.addEventListener('click', onClick); }
  for (const k of kids) { e.append(k); }
  return e;
}
customElements.define('wk-tab', class extends HTMLElement {});
customElements.define('wk-button', class extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) { return; }
    const button = document.createElement('button');
    button.textContent = this.getAttribute('label');
    button.addEventListener('click', () => this.dispatchEvent(new CustomEvent('press')));
    this.attachShadow({mode: 'open'}).append(button);
  }
});

const BOARDS = [
  {name: 'Alpha', cards: ['Plan', 'Build'], activity: {entries: ['created', 'moved']}, members: ['Ann']},
  {name: 'Beta', cards: ['Test', 'Ship'], members: ['Bob', 'Cy']},  // no activity: the planted TypeError
  {name: 'Gamma', cards: ['Draft'], activity: {entries: ['archived']}, members: ['Dee']},
];
const PEOPLE = [{id: 1, name: 'Ann Archer'}, {id: 2, name: 'Bob Baker'}, {id: 3, name: 'Cleo Cole'}];
const REPORTS = [{id: 1, name: 'Quarter one'}, {id: 2, name: 'Quarter two'}, {id: 3, name: 'Quarter three'}];
const SECTIONS = [['boards', 'Boards'], ['people', 'People'], ['reports', 'Reports'], ['settings', 'Settings']];
const app = document.getElementById('app');
let view = {};  // what is open inside the section: not in the URL

function go(path) { history.pushState(null, '', path); view = {}; draw(); }
window.addEventListener('popstate', () => { view = {}; draw(); });

function nav() {
  return w('div', {class: 'top'}, null,
    ...SECTIONS.map(([path, label]) => w('span', {class: 'nav-item'}, () => go('/' + path), label)));
}

function boards() {
  if (view.board === undefined) {
    return w('div', {}, null, w('h1', {}, null, 'Boards'),
      ...BOARDS.map((b, i) => w('div', {class: 'card'}, () => { view = {board: i, tab: 'cards'}; draw(); },
        w('b', {}, null, b.name))));
  }
  const board = BOARDS[view.board];
  const tabs = [['cards', 'Cards'], ['members', 'Members'], ['activity', 'Activity']].map(([key, label]) =>
    w('wk-tab', {}, () => { view.tab = key; draw(); }, label));
  let body;
  if (view.tab === 'cards') {
    body = w('ul', {class: 'items'}, null, ...board.cards.map(c => w('li', {}, null, c)));
  } else if (view.tab === 'activity') {
    body = w('ol', {class: 'log'}, null, ...board.activity.entries.map(e => w('li', {}, null, e)));
  } else {
    // the cards' template: a tab's view told from the one before by its heading only
    body = w('ul', {class: 'items'}, null, ...board.members.map(m => w('li', {}, null, m)));
  }
  return w('div', {}, null, w('h1', {}, null, 'Board ' + board.name), w('div', {class: 'tabs'}, null, ...tabs),
    w('h2', {}, null, view.tab), body);
}

function people() {
  view.open = view.open || [];
  const list = w('ul', {class: 'people'}, null, ...PEOPLE.map(p => w('li', {}, null,
    w('a', {href: '#'}, (e) => {
      e.preventDefault();
      if (!view.open.includes(p.id)) { view.open.push(p.id); }
      draw();
    }, p.name))));
  const panels = view.open.map(id => {
    const p = PEOPLE.find(x => x.id === id);
    const panel = w('div', {class: 'panel'}, null, w('h2', {}, null, p.name));
    const history = w('div', {class: 'history'}, null);
    panel.append(w('span', {class: 'more'}, () => {
      fetch('/api/people/' + id + '/history').then(r => r.ok ? r.json() : Promise.reject(r.status))
        .then(rows => { history.replaceChildren(w('h3', {}, null, 'History of ' + p.name),
          ...rows.map(x => w('p', {}, null, x))); })
        .catch(s => { history.replaceChildren(w('p', {}, null, 'Could not load the history')); });
    }, 'Show history'), history);
    return panel;
  });
  return w('div', {}, null, w('h1', {}, null, 'People'), list, w('div', {class: 'river'}, null, ...panels));
}

function reports() {
  if (view.report === undefined) {
    const list = w('ul', {class: 'reports'}, (e) => {
      const li = e.target.closest('li');
      if (li) { view = {report: Number(li.dataset.id)}; draw(); }
    }, ...REPORTS.map(r => w('li', {'data-id': String(r.id)}, null, r.name)));
    return w('div', {}, null, w('h1', {}, null, 'Reports'), list);
  }
  const report = REPORTS.find(r => r.id === view.report);
  const details = w('div', {class: 'details'}, null);
  return w('div', {}, null, w('h1', {}, null, 'Report ' + report.name),
    w('div', {class: 'row'}, () => {
      fetch('/api/reports/' + report.id + '/details').then(r => r.ok ? r.json() : Promise.reject(r.status))
        .then(rows => { details.replaceChildren(w('h2', {}, null, 'Details of ' + report.name),
          w('table', {}, null, ...rows.map(x => w('tr', {}, null, w('td', {}, null, x))))); })
        .catch(() => { details.replaceChildren(w('p', {}, null, 'No details')); });
    }, 'Details'), details);
}

function settings() {
  if (!view.advanced) {
    const button = w('wk-button', {label: 'Advanced'}, null);
    button.addEventListener('press', () => { view = {advanced: true}; draw(); });
    return w('div', {}, null, w('h1', {}, null, 'Settings'), w('p', {}, null, 'Theme: light'), button);
  }
  const out = w('pre', {class: 'export'}, null);
  return w('div', {}, null, w('h1', {}, null, 'Advanced settings'),
    w('span', {class: 'more'}, () => { out.textContent = 'x'.repeat(-1); }, 'Export'),
    w('span', {class: 'more'}, () => { view = {advanced: true, keys: true}; draw(); }, 'API keys'),
    view.keys ? w('p', {class: 'keys'}, null, 'No keys yet') : '', out);
}

function draw() {
  const section = location.pathname.split('/')[1];
  const body = {boards, people, reports, settings}[section];
  app.replaceChildren(nav(), body ? body() : w('div', {}, null, w('h1', {}, null, 'Welcome'),
    w('p', {}, null, 'Pick a section above.')));
}
draw();
"""

PLANTED = {
    "TypeError on a board's Activity tab": "reading 'entries'",
    "a person's history answers 500": "/api/people/3/history",
    "a report's details answer 500": "/api/reports/3/details",
    "RangeError in the advanced settings' Export": "Invalid count value",
}
"""The planted bugs, each three clicks from the start page → what its finding names."""


class WidgetSpa(QuietHandler):
    """The shell at every path (the app routes by `location.pathname`), its script, and its API: a
    history or details of record 3 answers 500, the others answer their rows."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.path.split("?")[0]
        if path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        if path == "/app.js":
            return self.reply(200, APP_JS, "application/javascript")
        if path.startswith("/api/"):
            if path.startswith(("/api/people/3/", "/api/reports/3/")):
                return self.reply(500, '{"error": "internal"}', "application/json")
            return self.reply(200, '["row one", "row two"]', "application/json")
        self.reply(
            200,
            '<!doctype html><html><head><title>Workspace</title></head><body><div id="app"></div>'
            '<script src="/app.js"></script></body></html>',
        )
