"""The scripts the browser engine runs inside a page: the init script every document gets before its
own scripts (dialogs answered at once, no popups, a record of the timers it has pending) and the one
round trip that reads a page (its HTML and what it has scheduled soon).

Nothing here trusts the page: it runs after our init script and may replace `setTimeout`, `Date`,
`Map` or our own record. What the record says only decides how long the engine watches a page that
has something due — never longer than `WATCH_S` after it was first read, and never past the step's
deadline — so a page that lies about its timers is at worst read early (a renderer it then blocks is
caught by the next call's deadline) or watched for the whole window, as every page was before.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from bughunt.actions import HIDDEN_MARK

from .acting_elements import LISTEN, MARK_ACTING
from .channel_frames import CHANNEL_PATTERN

CHANNEL_GRACE_MS = 250
"""After a channel answered a page that had sent it an event, how long the page stays due: the answer
may be another (a connect ack) and the one it waits for comes next."""
HASH_GRACE_MS = 500
"""How long a fragment a script set stays due while its `hashchange` has not fired (it fires in a task
of its own, after the click that set it has returned; a hash router renders the new place then)."""
FRAME_MS = 16
"""When an animation frame or an idle callback is taken to be due: the next frame."""


def init_script(name: str) -> str:
    """The init script of every document of the context: dialogs and popups switched off, and the timer
    record published as the non-writable, non-configurable `window[name]` of the top document.

    The record holds one due time (ms, `Date.now` as it was at start) per pending `setTimeout`,
    `setInterval` (its next run), `requestAnimationFrame` and `requestIdleCallback` of the document and
    of its same-origin frames (they share its renderer thread, so their timers can block it too); an
    entry goes when its callback runs or is cancelled. A `fetch`, an answer's body being read
    (`Response.json()` and its kin) and an `XMLHttpRequest` are due (at 0: whatever the horizon) from
    the moment they start — they are work the page is doing now — until they settled and the page's
    continuations have run. `window[name].pending(horizon, ahead)` answers `[now, soonest, workers]`:
    the record's clock, the soonest due time at or before `horizon` (when it is null: now + `ahead`
    ms), or null when nothing is due by then, and whether a document made a `Worker` or
    `SharedWorker` (a worker's requests look like the page's own, and the record cannot see them)."""
    return (
        """(() => {
  window.alert = () => {}; window.confirm = () => false; window.prompt = () => null;
  window.open = () => null;
  const NAME = """
        + json.dumps(name)
        + """, FRAME = """
        + str(FRAME_MS)
        + """, HASH_GRACE = """
        + str(HASH_GRACE_MS)
        + """;
  const clock = Date.now, define = Object.defineProperty, freeze = Object.freeze;
  let home = null;
  try { if (window.top !== window) { home = window.top[NAME] || null; } } catch (e) { home = null; }
  if (home === null) {
    const due = Object.create(null);  // no prototype: nothing the page changes later reaches it
    let workers = false;
    const acting = new WeakSet();  // elements given a click listener (`acting_elements.LISTEN`)
    let watching = false;  // the page watches its scrolling (`acting_elements.LISTEN`, `scroll_end`)
    // A fragment set by a script (`location.hash = ...`, a router's link) fires `hashchange` in a task
    // of its own, which may run after the engine's next look: until it did, the page is due — its
    // handlers are what render the new place (`popstate`, which Chromium fires at once for it, is no
    // sign it ran). `pushState`/`replaceState` fire nothing, so they land at once. Bounded: a change no event follows is due for `HASH_GRACE_MS` at most.
    const loc = window.location, at = () => String(loc.href), doc = (u) => u.split('#')[0];
    let seen = at(), noticed = null;
    const landed = () => { seen = at(); noticed = null; };
    window.addEventListener('hashchange', landed, true);
    for (const method of ['pushState', 'replaceState']) {
      const write = window.History && History.prototype[method];
      if (write) {
        History.prototype[method] = function (...args) { try { return write.apply(this, args); } finally { landed(); } };
      }
    }
    const hashDue = (now) => {
      const href = at();
      if (href === seen) { return false; }
      if (doc(href) !== doc(seen)) { landed(); return false; }
      if (noticed === null) { noticed = now; }
      if (now - noticed < HASH_GRACE) { return true; }
      landed();
      return false;
    };
    // Cookies the page's own scripts write (`document.cookie = ...`): a view's preference (a compact
    // list, a collapsed panel) that every later load of the site would show (`script_cookies`).
    const wrote = new Set(), jar = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    if (jar && jar.get && jar.set) {
      define(Document.prototype, 'cookie', {
        configurable: true, enumerable: jar.enumerable,
        get() { return jar.get.call(this); },
        set(v) {
          if (wrote.size < 64) { wrote.add(String(v).split(';')[0].split('=')[0].trim()); }
          return jar.set.call(this, v);
        },
      });
    }
    home = freeze({
      wrote() { return Array.from(wrote); },
      put(key, when) { due[key] = when; },
      drop(key) { delete due[key]; },
      worker() { workers = true; },
      heard(el) { acting.add(el); },
      listens(el) { return acting.has(el); },
      watch() { watching = true; },
      watches() { return watching; },
      pending(horizon, ahead) {
        const now = clock();
        const limit = typeof horizon === 'number' ? horizon : now + (Number(ahead) || 0);
        let soonest = hashDue(now) ? 0 : null;
        for (const key in due) {
          const when = due[key];
          if (when <= limit && (soonest === null || when < soonest)) { soonest = when; }
        }
        return [now, soonest, workers];
      },
    });
    define(window, NAME, {value: home, writable: false, configurable: false, enumerable: false});
  }
  const frame = Math.random().toString(36).slice(2) + ':';
  const native = {
    setTimeout: window.setTimeout, setInterval: window.setInterval, clearTimeout: window.clearTimeout,
    clearInterval: window.clearInterval, requestAnimationFrame: window.requestAnimationFrame,
    cancelAnimationFrame: window.cancelAnimationFrame, requestIdleCallback: window.requestIdleCallback,
    cancelIdleCallback: window.cancelIdleCallback,
  };
  const later = (ms) => clock() + Math.max(0, Number(ms) || 0);
  const body = (fn) => typeof fn === 'function' ? fn : () => (0, eval)(String(fn));
  const timer = (set, repeat) => function (fn, ms, ...rest) {
    const run = body(fn);
    let key = null;
    const wrapped = function () {
      if (repeat) { home.put(key, later(ms)); } else { home.drop(key); }
      return run.apply(this, arguments);
    };
    const id = set.call(window, wrapped, ms, ...rest);
    key = frame + 't' + id;
    home.put(key, later(ms));
    return id;
  };
  const clear = (cancel) => function (id) { home.drop(frame + 't' + id); return cancel.call(window, id); };
  const frameLike = (request, cancel, tag) => [
    function (fn, ...rest) {
      let key = null;
      const id = request.call(window, function () { home.drop(key); return fn.apply(this, arguments); }, ...rest);
      key = frame + tag + id;
      home.put(key, clock() + FRAME);
      return id;
    },
    function (id) { home.drop(frame + tag + id); return cancel.call(window, id); },
  ];
  // A request of the page's scripts, and each read of an answer's body, is pending from the call
  // until its promise settled and one task later: the page's own continuations (microtasks) have run
  // then, and whatever they started is recorded in turn.
  // A realtime channel's long-poll GET (`channel_frames.CHANNEL_PATTERN`) is the channel waiting, held
  // open for many seconds, not work the page is doing — but its first (the handshake) is, and so is an
  // event the page POSTed on it, until the channel next answered (the page's continuations have run).
  const CHANNEL = new RegExp("""
        + json.dumps(CHANNEL_PATTERN)
        + """), GRACE = """
        + str(CHANNEL_GRACE_MS)
        + """;
  const channel = (u) => { try { return CHANNEL.test(String(u && u.url !== undefined ? u.url : u)); } catch (e) { return false; } };
  const polls = new WeakMap();
  let count = 0, heard = false;
  const settled = (key) => () => { native.setTimeout.call(window, () => home.drop(key), 0); };
  const asked = new Set();
  const ask = () => { const key = frame + 'c' + (count += 1); home.put(key, 0); asked.add(key); };
  // An answer may not be the one asked for (a connect ack before it): after one, a page that was
  // waiting stays due for `CHANNEL_GRACE_MS`, so the watched read looks again once it is past.
  const answered = () => {
    heard = true;
    if (!asked.size) { return; }
    for (const key of asked) { settled(key)(); }
    asked.clear();
    const key = frame + 'g' + (count += 1);
    home.put(key, clock() + GRACE);
    native.setTimeout.call(window, () => home.drop(key), GRACE);
  };
  const track = (promise, tag) => {
    const key = frame + tag + (count += 1);
    home.put(key, 0);
    try { promise.then(settled(key), settled(key)); } catch (e) { home.drop(key); }
    return promise;
  };
  const nativeFetch = window.fetch;
  if (nativeFetch) {
    window.fetch = function (...args) {
      const got = nativeFetch.apply(window, args);
      if (!channel(args[0])) { return track(got, 'f'); }
      const method = String((args[1] && args[1].method) || (args[0] && args[0].method) || 'GET').toUpperCase();
      if (method === 'POST') { ask(); return got; }
      const first = !heard;
      got.then(answered, answered);
      return first ? track(got, 'f') : got;
    };
  }
  if (window.Response) {
    for (const method of ['json', 'text', 'arrayBuffer', 'blob', 'formData']) {
      const read = Response.prototype[method];
      if (read) { Response.prototype[method] = function (...args) { return track(read.apply(this, args), 'b'); }; }
    }
  }
  if (window.XMLHttpRequest) {
    const send = XMLHttpRequest.prototype.send, open = XMLHttpRequest.prototype.open;
    XMLHttpRequest.prototype.open = function (method, url, ...rest) {
      if (channel(url)) { polls.set(this, String(method).toUpperCase()); } else { polls.delete(this); }
      return open.call(this, method, url, ...rest);
    };
    XMLHttpRequest.prototype.send = function (...args) {
      if (polls.get(this) === 'POST') { ask(); return send.apply(this, args); }
      if (polls.has(this)) { this.addEventListener('loadend', answered); if (heard) { return send.apply(this, args); } }
      const key = frame + 'x' + (count += 1);
      home.put(key, 0);
      this.addEventListener('loadend', settled(key));
      try { return send.apply(this, args); } catch (e) { home.drop(key); throw e; }
    };
  }
  for (const kind of ['Worker', 'SharedWorker']) {
    const made = window[kind];
    if (made) {
      window[kind] = new Proxy(made, {construct(target, args, next) { home.worker(); return Reflect.construct(target, args, next); }});
    }
  }
"""
        + LISTEN
        + """
  window.setTimeout = timer(native.setTimeout, false);
  window.setInterval = timer(native.setInterval, true);
  // One pool of ids serves both (either clears either).
  window.clearTimeout = clear(native.clearTimeout);
  window.clearInterval = clear(native.clearInterval);
  if (native.requestAnimationFrame) {
    [window.requestAnimationFrame, window.cancelAnimationFrame] =
      frameLike(native.requestAnimationFrame, native.cancelAnimationFrame, 'r');
  }
  if (native.requestIdleCallback) {
    [window.requestIdleCallback, window.cancelIdleCallback] =
      frameLike(native.requestIdleCallback, native.cancelIdleCallback, 'i');
  }
})();"""
    )


_PENDING = """(name, horizon, ahead) => {
  try {
    const record = window[name];
    const got = record && typeof record.pending === 'function' ? record.pending(horizon, ahead) : null;
    if (Array.isArray(got) && got.length === 3) {
      return [Number(got[0]), got[1] === null ? null : Number(got[1]), got[2] === true];
    }
  } catch (e) { /* a page that broke its record: nothing known */ }
  return [null, null, true];
}"""

PENDING = "([name, horizon, ahead]) => (" + _PENDING + ")(name, horizon, ahead)"
"""Only the record's answer (`[now, soonest, workers]`, as in `READ`): the cheap round trip of a page watched
until what it had due has run."""

_CONTROLS = "a[href], button, [onclick], [role], [hx-get], [data-href], [tabindex], input[type=password i]"
"""Elements `bughunt.actions.clickable` may take for a control (a link only with `href="#"`, an in-page
fragment that is no hash route, or `javascript:`): the ones the read marks hidden. A password field too: a login form a single-page app
drew and then hid by its stylesheet (a dialog kept for an expired session) is no login wall
(`login_wall`)."""
MAX_LOOKS = 3000
"""Controls looked at per read (each look may lay the page out once)."""

READ = (
    """([maxNodes, limit, name, horizon, ahead]) => {
  const CONTROLS = """
    + json.dumps(_CONTROLS)
    + """, MARK = """
    + json.dumps(HIDDEN_MARK)
    + """, MAX_LOOKS = """
    + str(MAX_LOOKS)
    + """;
  const pending = ("""
    + _PENDING
    + """)(name, horizon, ahead);
  const root = document.documentElement;
  if (document.getElementsByTagName('*').length > maxNodes) {
    const html = root ? root.outerHTML : '';
    return [html.length > limit ? html.slice(0, limit) : html, pending];
  }
  for (const el of document.querySelectorAll('input, textarea, select')) {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (el.tagName === 'INPUT' && type !== 'password' && type !== 'file') {
      if (type === 'checkbox' || type === 'radio') { el.toggleAttribute('checked', el.checked); }
      else if (el.getAttribute('value') !== el.value) { el.setAttribute('value', el.value); }
    } else if (el.tagName === 'TEXTAREA' && el.textContent !== el.value) {
      el.textContent = el.value;
    } else if (el.tagName === 'SELECT') {
      for (const o of el.options) { o.toggleAttribute('selected', o.selected); }
    }
  }
  // Controls nobody can click now (no box, or `visibility: hidden`: a closed modal's buttons, a folded
  // menu's items; or under an open layer) are marked so, as Playwright judges visibility before a click; the mark goes when
  // they show again.
  // A layer over the whole viewport (a modal's backdrop or container: jQuery UI's `ui-widget-overlay`,
  // Bootstrap's `.modal`, ExtJS's mask) covers the page's controls below the fold too, where no point
  // can be tested: the element all four corners of the viewport hit, laid over the page (fixed or
  // absolute) and as large as the viewport.
  let layer = null;
  const corners = [[0.03, 0.03], [0.97, 0.03], [0.03, 0.97], [0.97, 0.97]]
    .map(([fx, fy]) => document.elementFromPoint(innerWidth * fx, innerHeight * fy));
  const hit = corners[0];
  if (hit && hit !== root && hit !== document.body && corners.every((c) => c === hit)) {
    const pos = getComputedStyle(hit).position, r = hit.getBoundingClientRect();
    if ((pos === 'fixed' || pos === 'absolute') && r.width >= innerWidth * 0.9 && r.height >= innerHeight * 0.9) {
      layer = hit;
    }
  }
  let looked = 0;
  for (const el of document.querySelectorAll(CONTROLS)) {
    if (looked++ >= MAX_LOOKS) { break; }
    const href = (el.getAttribute('href') || '').trim().toLowerCase();
    // A link to a place on the page (`#info`: a jQuery UI or Bootstrap tab's handle, a kept dialog's
    // `#confirm`) is a control a script takes, as `#` is; a hash route (`#/x`) and an address are pages.
    const inPage = href.startsWith('#') && !href.startsWith('#/') && !href.startsWith('#!/');
    if (el.tagName === 'A' && !inPage && !href.startsWith('javascript:')) { continue; }
    const box = el.getBoundingClientRect();
    // (`checkVisibility`: a closed `<details>`' content keeps a box in its details but is not drawn)
    let hidden = !box.width || !box.height || getComputedStyle(el).visibility === 'hidden'
      || (typeof el.checkVisibility === 'function' && !el.checkVisibility());
    if (!hidden) {
      // Covered where a click lands (an open side panel or modal over the list): the click would hit
      // the layer on top, as Playwright finds before it gives up. Only a point in the viewport is tested.
      const x = box.left + box.width / 2, y = box.top + box.height / 2;
      if (x >= 0 && y >= 0 && x < innerWidth && y < innerHeight) {
        const top = document.elementFromPoint(x, y);
        hidden = top !== null && top !== el && !el.contains(top) && !top.contains(el);
      } else if (layer !== null) {
        hidden = !layer.contains(el);
      }
    }
    if (hidden !== el.hasAttribute(MARK)) { el.toggleAttribute(MARK, hidden); }
  }
"""
    + MARK_ACTING
    + """
  let html = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
  return [root ? html + root.outerHTML : html, pending];
}"""
)
"""The page's HTML and its pending timers in one round trip (`[html, [now, soonest, workers]]`; no timer or
promise of the page's is relied on):
- a huge document (more than `maxNodes` elements) is read cut at `limit` (the doctype is not part of
  `outerHTML`; a cut page needs none);
- otherwise controls that have no box, are `visibility: hidden` or are covered at their centre by another
  element (an open side panel or modal over them) — or, below the fold, lie outside a layer that covers
  the whole viewport (a modal's backdrop) — get the attribute `HIDDEN_MARK` (and lose it once
  shown), so the engine offers no click Playwright would refuse (`bughunt.actions.clickable`);
- live form values, which are DOM properties (a framework's two-way binding sets no `value`
  attribute), are copied into attributes so the HTML shows what a person sees (passwords never), and
  the HTML is what `page.content()` gives: the doctype, then `outerHTML`;
- `[now, soonest, workers]` is `window[name].pending(horizon, ahead)` (`init_script`), `[null, null, true]`
  when the record is missing or answers nonsense."""


@dataclass(frozen=True)
class Record:
    """What the page's record (`page_scripts`) answered, checked: its clock and the soonest entry due
    by the asked horizon (each a finite number or None), and whether it can vouch for the page's
    requests — it answered and no document of the page made a worker (whose requests it cannot see)."""

    now: float | None = None
    soonest: float | None = None
    vouches: bool = False

    @property
    def no_requests(self) -> bool:
        """It vouches, and none of the page's requests is pending (theirs are the entries due at 0)."""
        return self.vouches and (self.soonest is None or self.soonest > 0)


def checked_record(pending: Any) -> Record:
    """The record's answer (`[now, soonest, workers]`) as the page gave it, checked."""
    if not isinstance(pending, list) or len(pending) != 3:
        return Record()
    now, soonest = (v if isinstance(v, (int, float)) and math.isfinite(v) else None for v in pending[:2])
    return Record(now, soonest, now is not None and pending[2] is False)


def made_worker(record: Record) -> bool:
    """The record answered but cannot vouch: a document of the page made a worker. The worker's first
    request may start after the page was read — its script can arrive before `load` and run after it,
    and no request of it was in flight when the engine looked — so such a page is read again after
    the browser engine's `QUIET_S` of quiet counted from its first read, not from the last request seen (which may have
    ended long before, and `_followed_seen` was still False then: the page was read while its worker
    had not fetched yet)."""
    return record.now is not None and not record.vouches
