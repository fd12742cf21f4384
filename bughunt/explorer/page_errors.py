"""How the browser engine hears a page's uncaught errors: from the page itself, as its own `String(error)`
says them (`Name: message`).

Chromium's own report of an uncaught value (Playwright's `pageerror`) describes an object that is not a
native `Error` by its constructor's name alone: a Dojo `CancelError` thrown from a minified build arrives
as `_320`, with neither its `name` nor its `message` — so the page cancelling its own request could not be
told from a failed one. The script below listens in every document, before the page's own scripts, for
the two ways an error goes uncaught (an `error` event at the window, an `unhandledrejection`) and hands
the binding `String(value)` — what the page's `Error.prototype.toString` (or the value's own) makes of it
— once the event's listeners have run and only if none of them handled it (`preventDefault`, as
Chromium then reports nothing either). A value whose `String` throws is named by its tag
(`[object Object]`). What the page says is evidence only; nothing here is trusted beyond being text.
"""

from __future__ import annotations

import json

MAX_TEXT = 500
"""Characters of an error's text kept (the engine's record keeps as many)."""


def thrown_script(binding: str) -> str:
    """The init script that calls `window[binding](text)` for each uncaught error of the document."""
    return (
        """(() => {
  const BIND = """
        + json.dumps(binding)
        + """, MAX = """
        + str(MAX_TEXT)
        + """;
  const str = String, tag = Object.prototype.toString, later = window.queueMicrotask
    ? window.queueMicrotask.bind(window) : (fn) => Promise.resolve().then(fn);
  const Failed = window.ErrorEvent;
  const say = (event, value, fallback) => {
    // After the event's other listeners ran: a page that handled its error (onerror returning true,
    // preventDefault on the rejection) showed the user nothing, and Chromium reports nothing either.
    later(() => {
      if (event.defaultPrevented) { return; }
      let text;
      try { text = value === undefined || value === null ? str(fallback || value) : str(value); }
      catch (e) { try { text = tag.call(value); } catch (e2) { text = 'uncaught value'; } }
      const report = window[BIND];
      if (typeof report === 'function') { try { report(text.slice(0, MAX)); } catch (e) { /* gone */ } }
    });
  };
  window.addEventListener('error', (event) => {
    // a script's error reaches the window itself; an image's or a script file's failed load does not
    if (Failed && event instanceof Failed && event.target === window) { say(event, event.error, event.message); }
  });
  window.addEventListener('unhandledrejection', (event) => { say(event, event.reason, ''); });
})();"""
    )
