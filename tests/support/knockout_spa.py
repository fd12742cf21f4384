"""A single-page app in the style of Knockout.js, served on loopback for the browser engine: the webmail
of Knockout's own tutorial ("Single page applications", learn.knockoutjs.com), with a binding engine of
a few lines written after Knockout's documentation (no copy of Knockout itself, nor of any corpus app).

What it shares with a Knockout app, and what the explorer must read:
- the markup says what it does only in `data-bind` attributes (`text`, `html`, `click`, `foreach`,
  `with`, `template`, `css`, `visible`), evaluated against a view model; a `click` binding is a listener
  set by script on whatever element carries it — folders are `<li>`s, mails are table rows, actions are
  `<span>`s — with no href, role, tabindex or pointer cursor;
- lists are `foreach` bindings re-rendered from JSON (`/api/folder/<name>`, `/api/mail/<id>`): the rows
  of every folder are new nodes at the same places, so the Archive's first row has the selector the
  Inbox's first row had;
- client-side routing by the hash, as the tutorial's Sammy.js routes: a folder is `#Inbox`, a mail
  `#Inbox/3` (no `#/`: the hash names no element of the page), and the app draws what the hash says on
  its first load too;
- a template swapped without changing the URL: the "Detailed" layout shows the mail list in another
  template, whose rows carry a "Preview" action.

Four bugs are planted two or three clicks deep (`PLANTED`, each mark a string of its finding): an
archived mail answering 500, a sent mail's "Show headers" throwing a TypeError, a preview in the
detailed layout answering 500 and a spam mail whose "Show headers" answers 500.
"""

from __future__ import annotations

import json

from tests.support.loopback import QuietHandler

SHELL = """<!doctype html><html><head><title>Webmail</title></head><body>
<ul class="folders" data-bind="foreach: folders">
  <li data-bind="text: $data, css: { selected: $data == $root.chosenFolderId() }, click: $root.goToFolder"></li>
</ul>
<span class="layout" data-bind="click: $root.toggleLayout, text: $root.layoutLabel()"></span>
<div data-bind="template: { name: $root.layout() }"></div>
<div class="viewMail" data-bind="with: chosenMailData">
  <h1 data-bind="text: subject"></h1>
  <p>From: <span data-bind="text: from"></span></p>
  <div class="message" data-bind="html: body"></div>
  <span class="action" data-bind="click: $root.showHeaders">Show headers</span>
  <ul class="headers" data-bind="foreach: $root.headers()"><li data-bind="text: $data"></li></ul>
</div>
<script type="text/html" id="compact">
  <table class="mails" data-bind="with: $root.chosenFolderData()">
    <tbody data-bind="foreach: mails">
      <tr data-bind="click: $root.goToMail"><td data-bind="text: from"></td><td data-bind="text: subject"></td></tr>
    </tbody>
  </table>
</script>
<script type="text/html" id="detailed">
  <table class="mails" data-bind="with: $root.chosenFolderData()">
    <tbody data-bind="foreach: mails">
      <tr><td data-bind="text: from"></td><td data-bind="text: subject"></td><td data-bind="text: date"></td>
        <td><span class="preview" data-bind="click: $root.preview">Preview</span></td></tr>
    </tbody>
  </table>
  <p class="previewed" data-bind="text: $root.previewText()"></p>
</script>
<script src="/app.js"></script>
</body></html>"""

APP_JS = r"""
// A binding engine after Knockout's documentation: observables, and bindings read from `data-bind`.
let queued = false;
function observable(value) {
  const f = function (next) {
    if (arguments.length) { value = next; if (!queued) { queued = true; queueMicrotask(render); } return; }
    return value;
  };
  f.isObservable = true;
  return f;
}
const unwrap = (v) => (typeof v === 'function' && v.isObservable) ? v() : v;
function bindingsOf(el, ctx) {
  const read = new Function('$context', '$data',
    'with ($context) { with ($data || {}) { return {' + el.getAttribute('data-bind') + '}; } }');
  return read(ctx, ctx.$data);
}
function bind(node, ctx) {
  if (node.nodeType !== 1 || node.localName === 'script') { return; }
  if (node.hasAttribute('data-bind')) {
    const b = bindingsOf(node, ctx);
    if ('visible' in b && !unwrap(b.visible)) { node.style.display = 'none'; }
    for (const [name, on] of Object.entries(b.css || {})) { if (unwrap(on)) { node.classList.add(name); } }
    if ('click' in b) {
      const handler = b.click, data = ctx.$data;
      node.addEventListener('click', (e) => { e.preventDefault(); handler.call(data, data, e); });
    }
    if ('text' in b) { node.textContent = String(unwrap(b.text) ?? ''); return; }
    if ('html' in b) { node.innerHTML = String(unwrap(b.html) ?? ''); return; }
    if ('template' in b) { node.innerHTML = document.getElementById(unwrap(b.template.name)).innerHTML; }
    if ('with' in b) {
      const data = unwrap(b.with);
      if (data == null) { node.replaceChildren(); return; }
      ctx = {...ctx, $parent: ctx.$data, $data: data};
    }
    if ('foreach' in b) {
      const items = unwrap(b.foreach) || [], template = [...node.childNodes];
      node.replaceChildren();
      for (const item of items) {
        for (const t of template) {
          const copy = t.cloneNode(true);
          node.append(copy);
          bind(copy, {...ctx, $parent: ctx.$data, $data: item});
        }
      }
      return;
    }
  }
  for (const child of [...node.children]) { bind(child, ctx); }
}
const pristine = new Map();  // each bound top-level element's markup, re-rendered anew on every change
function render() {
  queued = false;
  for (const el of document.body.children) {
    if (el.localName === 'script') { continue; }
    if (!pristine.has(el)) { pristine.set(el, el.innerHTML); }
    el.innerHTML = pristine.get(el);
    el.classList.remove('selected');
    bind(el, {$root: vm, $data: vm});
  }
}
function getJSON(url) { return fetch(url).then(r => r.ok ? r.json() : Promise.reject(new Error(url + ' ' + r.status))); }

// The tutorial's view model, with a layout and the mail's headers beside it.
function WebmailViewModel() {
  const self = this;
  self.folders = ['Inbox', 'Archive', 'Sent', 'Spam'];
  self.chosenFolderId = observable();
  self.chosenFolderData = observable();
  self.chosenMailData = observable();
  self.headers = observable([]);
  self.layout = observable('compact');
  self.previewText = observable('');
  self.layoutLabel = () => self.layout() === 'compact' ? 'Detailed' : 'Compact';
  self.toggleLayout = () => self.layout(self.layout() === 'compact' ? 'detailed' : 'compact');
  self.goToFolder = (folder) => { location.hash = folder; };
  self.goToMail = (mail) => { location.hash = mail.folder + '/' + mail.id; };
  self.preview = (mail) => { getJSON('/api/preview/' + mail.id).then(p => self.previewText(p.text)); };
  self.showHeaders = (mail) => {
    if (mail.folder === 'Sent') { self.headers(mail.delivery.received.map(h => h)); return; }  // planted
    getJSON('/api/headers/' + mail.id).then(self.headers);
  };
}
const vm = new WebmailViewModel();

// Routing by the hash (the tutorial's Sammy.js: '#:folder' and '#:folder/:mailId').
function route() {
  const [folder, id] = decodeURIComponent(location.hash.slice(1)).split('/');
  if (!folder) { location.hash = 'Inbox'; return; }
  vm.chosenFolderId(folder);
  vm.headers([]);
  if (id) {
    vm.chosenFolderData(null);
    getJSON('/api/mail/' + id).then(vm.chosenMailData);
  } else {
    vm.chosenMailData(null);
    getJSON('/api/folder/' + folder).then(vm.chosenFolderData);
  }
}
window.addEventListener('hashchange', route);
render();
route();
"""

FOLDERS = {
    "Inbox": [(1, "Ann", "Lunch on Friday"), (2, "Bob", "Build report"), (3, "Cleo", "Holiday plans")],
    "Archive": [(11, "Dan", "Old invoice"), (12, "Eve", "Last year's party")],
    "Sent": [(21, "me", "Re: Lunch"), (22, "me", "Minutes")],
    "Spam": [(31, "Prize desk", "You won"), (32, "Bank", "Verify now")],
}
BROKEN_MAIL = 11
"""The archived mail whose page answers 500 (the Archive's first row: the Inbox's first row's place)."""
BROKEN_PREVIEW = 1
BROKEN_HEADERS = 31

PLANTED = {
    "an archived mail answers 500": f"/api/mail/{BROKEN_MAIL}",
    "a sent mail's headers throw a TypeError": "reading 'received'",
    "a preview in the detailed layout answers 500": f"/api/preview/{BROKEN_PREVIEW}",
    "a spam mail's headers answer 500": f"/api/headers/{BROKEN_HEADERS}",
}
"""The planted bugs, two or three clicks from the start page → what its finding names."""


def _mail(mail_id: int) -> dict[str, object] | None:
    for folder, mails in FOLDERS.items():
        for i, sender, subject in mails:
            if i == mail_id:
                return {
                    "id": i,
                    "folder": folder,
                    "from": sender,
                    "subject": subject,
                    "body": f"<p>{subject}.</p>",
                }
    return None


class KnockoutSpa(QuietHandler):
    """The shell (at `/` only), its script and its JSON API; the planted bugs answer 500."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.path.split("?")[0]
        if path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        if path == "/app.js":
            return self.reply(200, APP_JS, "application/javascript")
        if path == "/":
            return self.reply(200, SHELL)
        parts = path.strip("/").split("/")
        if len(parts) != 3 or parts[0] != "api":
            return self.reply(404, "not found", "text/plain")
        kind, key = parts[1], parts[2]
        if kind == "folder" and key in FOLDERS:
            mails = [
                {"id": i, "folder": key, "from": s, "subject": t, "date": f"2026-0{n + 1}-01"}
                for n, (i, s, t) in enumerate(FOLDERS[key])
            ]
            return self._json(200, {"id": key, "mails": mails})
        mail = _mail(int(key)) if key.isdigit() else None
        if mail is None:
            return self._json(404, {"error": "no such mail"})
        broken = {"mail": BROKEN_MAIL, "preview": BROKEN_PREVIEW, "headers": BROKEN_HEADERS}
        if broken.get(kind) == mail["id"]:
            return self._json(500, {"error": "internal"})
        if kind == "mail":
            return self._json(200, mail)
        if kind == "preview":
            return self._json(200, {"text": f"{mail['subject']}: first lines"})
        if kind == "headers":
            return self._json(200, [f"Received: from {mail['from']}", "Content-Type: text/html"])
        return self._json(404, {"error": "no such view"})

    def _json(self, status: int, body: object) -> None:
        self.reply(status, json.dumps(body), "application/json")
