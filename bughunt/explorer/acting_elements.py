"""Elements that act when clicked though no markup says so, found by what the page does: the browser
engine's part of `bughunt.focus_controls.acts_on_click`.

A widget framework sets its handlers by script (`addEventListener`, an `onclick` property) on plain
`<span>`s, `<div>`s and custom elements, or handles every click on a list in one listener on the list
(delegation); what a person sees of such a control is its pointer cursor. So the engine's init script
records every element given a click-like listener (`LISTEN`), and its read (`MARK_ACTING`) marks, among
the page's elements that markup does not already name as controls (at most `MAX_ACTING_LOOKS` looked at,
`MAX_ACTING` marked: a page of thousands of clickable spans is read in bounded time), those that
- hold such a listener or an `onclick` property, or
- are the outermost element of a pointer cursor (it is inherited: the element that set it is the
  control, its text inside is not), or
- are custom elements whose open shadow root holds a control (their own markup is empty: the button
  lives in the shadow tree; the mark carries its text, the control's label),
and are shown where a click lands (a button inside a link with such a listener of its own too: a card's
Delete icon, which the walk would otherwise read as part of the link) — unless they hold another such element or a control (a list that
delegates its clicks, a panel with a listener that closes menus): those are containers, clicked
through what they hold; or they are part of a control (an icon in a `<label>`, a cell's box in a
focusable row): their click is that control's. Form fields, landmarks and the document's root are never marked. The mark is
`ACTS_MARK`; nothing the page says is trusted beyond which elements to try: a control that does
nothing is learned as idle (`idle_controls`) like any other.
"""

from __future__ import annotations

import json

from bughunt.focus_controls import ACTS_MARK, LISTENER, NOT_CLICKED, SHADOW_PREFIX

MAX_ACTING_LOOKS = 3000
"""Elements looked at per read for a listener or a pointer cursor."""
MAX_ACTING = 400
"""Elements marked as acting per read, at most."""
MAX_SHADOW_LOOKS = 3000
"""Elements of shadow trees looked at per read for a listener (a shadow root's markup controls are found
by one query each)."""
CLICK_EVENTS = ("click", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "touchend")

LISTEN = (
    """
  // Elements given a click-like listener are recorded (never their handlers: only which elements).
  {
    const CLICKS = new Set("""
    + json.dumps(list(CLICK_EVENTS))
    + """);
    const SCROLLS = new Set(["scroll", "wheel"]);
    const listen = EventTarget.prototype.addEventListener;
    EventTarget.prototype.addEventListener = function (type, handler, options) {
      try {
        const kind = String(type).toLowerCase();
        if (this instanceof Element && CLICKS.has(kind)) { home.heard(this); }
        if (SCROLLS.has(kind)) { home.watch(); }
      } catch (e) { /* a page's odd receiver: nothing recorded */ }
      return listen.call(this, type, handler, options);
    };
    // A page that observes what comes into view (an infinite scroll's sentinel, lazy cards) or listens
    // for scrolling draws more when scrolled: only such a page is scrolled to its end (`scroll_end`).
    const Observer = window.IntersectionObserver;
    if (Observer && Observer.prototype && Observer.prototype.observe) {
      const observe = Observer.prototype.observe;
      Observer.prototype.observe = function (target) { home.watch(); return observe.call(this, target); };
    }
  }
"""
)
"""Part of the init script, run where `home` (the record) is defined: `home.heard(element)`, and
`home.watch()` for a page watching its scrolling."""

MARK_ACTING = (
    """
  {
    const ACTS = """
    + json.dumps(ACTS_MARK)
    + """, SHADOW = """
    + json.dumps(SHADOW_PREFIX)
    + """, LISTENER = """
    + json.dumps(LISTENER)
    + """, SKIP = new Set("""
    + json.dumps(sorted(NOT_CLICKED))
    + """);
    const MAX_SHADOW_LOOKS = """
    + str(MAX_SHADOW_LOOKS)
    + """;
    const MARKUP = 'a[href], button, input, select, textarea, summary, [onclick], [role], [tabindex], [hx-get], [data-href]';
    const INNER = 'a[href], button, [role=button], [role=link], [role=tab], [role=menuitem], [onclick]';
    const record = window[name];
    const heard = (el) => { try { return record.listens(el) === true; } catch (e) { return false; } };
    const shown = (el) => {
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') { return false; }
      const x = box.left + box.width / 2, y = box.top + box.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) { return true; }
      const top = document.elementFromPoint(x, y);
      return top === null || top === el || el.contains(top);
    };
    // A part of a control is that control: an icon in a `<label>` activates its field, a cell's box in a
    // focusable row opens the row (`focus_controls`), a `<span>` in a button is the button.
    const OWNER = 'a[href], button, label, summary, [role=button], [role=link], [role=tab], [role=menuitem], [tabindex]';
    // ... but an element inside a link given a click listener of its own is a control nested in the
    // link (a sidebar group's expander, a tree item's twisty, a card's star): the link navigates, it
    // does something else (`nested_controls`).
    const partOfControl = (el) => {
      const owner = el.parentElement ? el.parentElement.closest(OWNER) : null;
      if (owner !== null && owner.matches('a[href]') && (heard(el) || typeof el.onclick === 'function')) {
        return false;
      }
      return owner !== null && (owner.localName === 'label' || !SKIP.has(owner.localName))
        && !(Number(owner.getAttribute('tabindex')) < 0);
    };
    // A button inside a link given a click listener of its own (a card's Delete or star icon): its
    // markup names it a control, but the walk reads it as part of the link around it (`inside_link`)
    // unless it is marked as nested in it, as a listening `<span>` there is.
    const nestedInLink = (el) => el.localName !== 'a' && el.parentElement !== null
      && el.parentElement.closest('a[href]') !== null && (heard(el) || typeof el.onclick === 'function');
    const found = new Map();  // element → the mark's value
    let seen = 0, shadowLooks = 0;
    for (const el of (document.body ? document.body.getElementsByTagName('*') : [])) {
      if (seen++ >= """
    + str(MAX_ACTING_LOOKS)
    + """ || found.size >= """
    + str(MAX_ACTING)
    + """) { break; }
      if (SKIP.has(el.localName) || (el.matches(MARKUP) && !nestedInLink(el)) || partOfControl(el)) { continue; }
      let how = null;
      if (heard(el) || typeof el.onclick === 'function') {
        how = LISTENER;
      } else if (el.shadowRoot && el.localName.includes('-')) {
        let acts = el.shadowRoot.querySelector(INNER) !== null;
        const walk = document.createTreeWalker(el.shadowRoot, NodeFilter.SHOW_ELEMENT);
        while (!acts && shadowLooks < MAX_SHADOW_LOOKS && walk.nextNode() !== null) {
          shadowLooks++;
          acts = heard(walk.currentNode);
        }
        if (acts) {
          how = SHADOW + (el.shadowRoot.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 120);
        }
      } else if (getComputedStyle(el).cursor === 'pointer'
                 && !(el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer')) {
        how = 'pointer';
      }
      if (how !== null && shown(el)) { found.set(el, how); }
    }
    // A container of controls is clicked through what it holds: not marked itself.
    for (const el of [...found.keys()]) {
      if (el.querySelector(INNER) !== null) { found.delete(el); continue; }
      for (let up = el.parentElement, n = 0; up !== null && n < 64; up = up.parentElement, n++) {
        if (found.has(up)) { found.delete(up); }
      }
    }
    for (const el of document.querySelectorAll('[' + ACTS + ']')) {
      if (!found.has(el)) { el.removeAttribute(ACTS); }
    }
    for (const [el, how] of found) {
      if (el.getAttribute(ACTS) !== how) { el.setAttribute(ACTS, how); }
    }
  }
"""
)
"""Part of the read (`page_scripts.READ`), run where `name` is the record's name: marks the elements
that act on click (`ACTS_MARK`), as the module's docstring says."""
