"""The body of a generated reproduction (`bughunt repro`): plain Python that needs pytest and httpx
(HTTP bugs) or pytest and Playwright's client with Debian's chromium (browser bugs), never BugHunt.

`bughunt.explorer.repro` puts a docstring and the bug's data (`KIND`, `TARGET`, `CLICK_PATH`, `LOGIN`,
`EVIDENCE`, …) in front of it; the checks below read only those names. Each check asserts what the bug
looks like, so the test fails while the bug is there and passes once it is fixed.
"""

COMMON = r'''
def _env(name):
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"set the environment variable {name} (the session read its secret from it)")
    return value


def _norm(text):
    return " ".join(str(text).split())


class _Html(HTMLParser):
    """The parts of a page the checks read: scripts, forms with their fields, visible text."""

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.scripts, self.forms, self.text = [], [], []
        self._script, self._skip, self._textarea = None, 0, None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "script":
            self._script = []
        elif tag in ("style", "template"):
            self._skip += 1
        elif tag == "form":
            self.forms.append({"method": a.get("method", "get").lower(), "action": a.get("action", ""), "enctype": a.get("enctype", "").strip().lower(), "fields": []})
        elif tag in ("input", "select") and self.forms:
            self.forms[-1]["fields"].append({"name": a.get("name", ""), "type": a.get("type", "text").lower(), "value": a.get("value", "")})
        elif tag == "textarea" and self.forms:
            self._textarea = {"name": a.get("name", ""), "type": "textarea", "value": ""}
            self.forms[-1]["fields"].append(self._textarea)

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            self.scripts.append("".join(self._script))
            self._script = None
        elif tag in ("style", "template"):
            self._skip = max(0, self._skip - 1)
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._script is not None:
            self._script.append(data)
        elif self._textarea is not None:
            self._textarea["value"] += data
        elif not self._skip:
            self.text.append(data)

    def visible(self):
        return _norm(" ".join(self.text))

    def field_values(self, name):
        return [f["value"] for form in self.forms for f in form["fields"] if f["name"] == name]


def _path(url):
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _check(site):
    """Assert the bug is gone (fails, with the evidence, while it is there)."""
    if KIND == "server_error":
        status, _ = site.open(TARGET)
        assert status < 500, f"HTTP {status} at {TARGET} (was: {EVIDENCE.get('error_line', '')})"
    elif KIND == "unescaped_script":
        _, html = site.open(TARGET)
        code = _norm(EVIDENCE["code"])
        assert code not in [_norm(s) for s in _Html(html).scripts], f"user content runs as a script at {TARGET}: {code!r}"
    elif KIND == "count_mismatch":
        _, html = site.open(TARGET)
        label = _norm(EVIDENCE["label"].splitlines()[0])
        assert label not in _Html(html).visible(), (
            f"{label!r} at {TARGET} while {EVIDENCE['listed']} items are listed"
        )
    elif KIND == "duplicate_pagination" and EVIDENCE["previous_route"] is None:
        _, html = site.open(TARGET)
        shown = _Html(html).visible()
        again = [n for n in EVIDENCE["repeated"].splitlines() if shown.count(_norm(n)) > 1]
        assert not again, f"{TARGET} lists one record twice: {again}"
    elif KIND == "duplicate_pagination":
        _, before = site.open(EVIDENCE["previous_route"])
        _, html = site.open(TARGET)
        shown_before, shown_now = _Html(before).visible(), _Html(html).visible()
        again = [n for n in EVIDENCE["repeated"].splitlines() if _norm(n) in shown_before and _norm(n) in shown_now]
        assert not again, f"{TARGET} repeats items of {EVIDENCE['previous_route']}: {again}"
    elif KIND == "form_drops_value":
        _, html = site.open(TARGET)
        page = _Html(html)
        empty = [name for name in EVIDENCE["fields"].splitlines() if not any(v.strip() for v in page.field_values(name))]
        assert not empty, f"the edit form at {TARGET} leaves {empty} empty"
    elif KIND == "unconfirmed_destructive":
        status, html, location = site.get_once(TARGET)
        asks = any(
            form["method"] == "post" and _path(urljoin(BASE_URL + TARGET, form["action"] or TARGET)) == TARGET
            for form in _Html(html).forms
        )
        assert 400 <= status < 500 or (status < 300 and asks), (
            f"GET {TARGET} acted without asking (HTTP {status}{', to ' + location if location else ''})"
        )
    elif KIND == "client_error":
        errors = site.client_errors(TARGET)
        same = [e for e in errors if e == EVIDENCE["signature_error"]]
        assert not same, f"{TARGET}: {same}"
    else:
        pytest.fail(f"no check for bug kind {KIND}")


def test_reproduces():
    with _Site() as site:
        site.log_in()
        for step in CLICK_PATH:
            site.replay(step)
        _check(site)
'''

HTTP = r'''
class _Site:
    """The site over HTTP (httpx), logged in as the exploration was."""

    def __enter__(self):
        headers = {name: _env(var) for name, var in LOGIN["headers"].items()}
        self.client = httpx.Client(base_url=BASE_URL, headers=headers, timeout=10, follow_redirects=True)
        for name, var in LOGIN["cookies"].items():
            self.client.cookies.set(name, _env(var))
        return self

    def __exit__(self, *exc):
        self.client.close()

    def log_in(self):
        if not LOGIN["login_url"]:
            return
        page = self.client.get(LOGIN["login_url"])
        form = next(f for f in _Html(page.text).forms if any(x["type"] == "password" for x in f["fields"]))
        data, user_done = {}, False
        for field in form["fields"]:
            if not field["name"]:
                continue
            if field["type"] == "password":
                data[field["name"]] = _env(LOGIN["password_env"])
            elif field["type"] in ("text", "email") and not user_done:
                data[field["name"]], user_done = LOGIN["username"], True
            elif field["type"] not in ("submit", "button", "checkbox", "radio"):
                data[field["name"]] = field["value"]
        url = urljoin(str(page.url), form["action"] or str(page.url))
        if form["enctype"] == "multipart/form-data":  # the encoding the page declared (some servers read no other)
            answer = self.client.post(url, files=[(name, (None, value)) for name, value in data.items()])
        else:
            answer = self.client.post(url, data=data)
        assert 'type="password"' not in answer.text, "the login did not succeed"

    def replay(self, step):
        self.client.get(step["route"])

    def open(self, route):
        answer = self.client.get(route)
        return answer.status_code, answer.text

    def get_once(self, route):
        answer = self.client.get(route, follow_redirects=False)
        return answer.status_code, answer.text, answer.headers.get("location", "")
'''

BROWSER = r'''
CHROMIUM = os.environ.get("BUGHUNT_CHROMIUM", "/usr/bin/chromium")


class _Site:
    """The site in Chromium (Playwright, Debian's browser), logged in as the exploration was."""

    def __enter__(self):
        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        headers = {name: _env(var) for name, var in LOGIN["headers"].items()}
        self.context = self.browser.new_context(extra_http_headers=headers)
        self.context.set_default_timeout(10_000)
        origin = urlsplit(BASE_URL)
        cookies = [{"name": n, "value": _env(v), "domain": origin.hostname, "path": "/"} for n, v in LOGIN["cookies"].items()]
        if cookies:
            self.context.add_cookies(cookies)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda err: self.errors.append(["js_error", getattr(err, "message", str(err)), ""]))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(["console_error", m.text, ""]))
        self.page.on("response", lambda r: r.status >= 400 and self.errors.append(["failed_request", _path(r.url), str(r.status)]))
        return self

    def __exit__(self, *exc):
        self.browser.close()
        self.pw.stop()

    def _load(self, route):
        answer = self.page.goto(BASE_URL + route, wait_until="load")
        try:
            self.page.wait_for_load_state("networkidle", timeout=3_000)
        except PlaywrightTimeout:
            pass
        return answer.status if answer is not None else 0

    def log_in(self):
        if not LOGIN["login_url"]:
            return
        self.page.goto(urljoin(BASE_URL + "/", LOGIN["login_url"]))
        form = self.page.locator("form:has(input[type=password])").first
        form.locator("input[type=text], input[type=email], input:not([type])").first.fill(LOGIN["username"])
        form.locator("input[type=password]").first.fill(_env(LOGIN["password_env"]))
        with self.page.expect_navigation():
            form.locator("input[type=password]").first.press("Enter")
        assert self.page.locator("input[type=password]").count() == 0, "the login did not succeed"

    def replay(self, step):
        if step["action"] == "click":
            if "#click-" not in step["on"]:  # made on a state the step before left: clicked as it stands
                self._load(step["on"])
            self.page.click(step["selector"])
        else:
            self._load(step["route"])

    def _reach(self, route):
        """Load `route`; a click state (`...#click-...`): reach the page or state it was made on, then click."""
        click = TARGET_CLICK if route == TARGET else None
        click = click or next((s for s in CLICK_PATH if s["route"] == route and s["action"] == "click"), None)
        if click is None:
            return self._load(route)
        status = self._reach(click["on"])
        self.page.click(click["selector"])
        self.page.wait_for_timeout(500)
        return status

    def open(self, route):
        status = self._reach(route)
        return status, self.page.content()

    def get_once(self, route):
        answer = self.context.request.get(BASE_URL + route, max_redirects=0)
        return answer.status, answer.text(), answer.headers.get("location", "")

    def client_errors(self, route):
        self.errors = []
        self.open(route)
        return list(self.errors)
'''
