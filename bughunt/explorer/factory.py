"""Build a policy by name (a simulator strategy, or the memgpt_lite agent `llm`) and an engine by name."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from bughunt.actions import extract_actions
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts
from memgpt_lite.context.tokens import TokenCounter
from memgpt_lite.errors import UsageError

from .engine import Engine
from .http_engine import HttpEngine
from .policies import Policy, StrategyPolicy, policy_names
from .store import ExplorerStore


@lru_cache(maxsize=1)
def shared_counter() -> TokenCounter:
    """One token counter per process: loading the BPE ranks is the expensive part."""
    return TokenCounter()


@contextmanager
def make_policy(
    name: str,
    *,
    store: ExplorerStore,
    model_name: str | None = None,
    model: Any = None,
    embedder: Any = None,
    base_url: str | None = None,
) -> Iterator[Policy]:
    """The policy called `name`. For `llm`, `model` (a memgpt_lite `Model`, e.g. the scripted one in
    tests) wins over `model_name` (an Anthropic model, which needs ANTHROPIC_API_KEY)."""
    names = policy_names()
    if name not in names:
        raise UsageError(f"--policy: unknown {name!r}; choose one of {', '.join(names)}")
    if name != "llm":
        yield StrategyPolicy(name)
        return
    from .llm_policy import LLMPolicy, default_model

    policy = LLMPolicy(
        store=store,
        model=model if model is not None else default_model(model_name, base_url),
        embedder=embedder,
    )
    try:
        yield policy
    finally:
        policy.close()


ENGINES = ("http", "browser", "auto")
SHELL_TEXT_CHARS = 200
SHELL_ACTIONS = 2


def looks_like_app_shell(page: FetchedPage) -> bool:
    """True for a start page that needs scripts to show anything: it has scripts, and without running
    them its body shows almost no text (< SHELL_TEXT_CHARS characters) and at most SHELL_ACTIONS actions."""
    if not page.is_html or not tree_facts(page).tagged("script"):
        return False
    bodies = tree_facts(page).tagged("body")
    text = (bodies[0] if bodies else page.document).text()
    return len(text) < SHELL_TEXT_CHARS and len(extract_actions(page)) <= SHELL_ACTIONS


def make_engine(engine: str, url: str, **options: Any) -> tuple[Engine, str]:
    """The engine called `engine` (`http`, `browser`, or `auto`: the browser when the start page is an
    app shell) and a sentence saying which was chosen and why (for `auto`). `options` are
    `HttpEngine`'s; `storage_state`, `allow_origins` and `browser_path` only the browser's."""
    if engine not in ENGINES:
        raise UsageError(f"--engine: unknown {engine!r}; choose one of {', '.join(ENGINES)}")
    storage_state = options.pop("storage_state", None)
    allow_origins = tuple(options.pop("allow_origins", ()) or ())
    browser_path = options.pop("browser_path", None)
    realtime = bool(options.pop("realtime", True))
    trace = options.pop("trace", None)
    creds = options.get("credentials")
    if trace is not None and creds is not None and getattr(creds, "login_url", None):
        # the trace records every action with its values: the password typed into the login form too
        raise UsageError(
            "--trace records what is typed, the password too: trace a session started with "
            "--storage-state or --cookie instead of --login-url"
        )
    reason = ""
    if engine == "auto":
        probe = HttpEngine(url, **options)
        result = probe.fetch(probe.start_route())
        shell = result.page is not None and looks_like_app_shell(result.page)
        engine = "browser" if shell else "http"
        reason = (
            "engine auto: browser (the start page shows almost nothing without scripts)"
            if shell
            else f"engine auto: http (the start page {'is readable without scripts' if result.page else 'gave ' + result.outcome})"
        )
        options["cookies"] = probe.cookies
    if engine == "browser":
        from .chromium import chromium_path

        # A missing Chromium (or Playwright) is one clear line now, not a traceback at the first step.
        chromium_path(browser_path)
        from .browser import BrowserEngine

        engine_ = BrowserEngine(
            url,
            storage_state=storage_state,
            allow_origins=allow_origins,
            browser_path=browser_path,
            trace=trace,
            realtime=realtime,
            **options,
        )
        return engine_, reason
    if trace is not None:
        raise UsageError("--trace records the browser: use it with --engine browser")
    # `--browser-path` with `auto` is a preference for when a browser is needed; the rest is not.
    if storage_state is not None or allow_origins or (browser_path and not reason):
        raise UsageError(
            "--storage-state, --allow-origin and --browser-path are for the browser: "
            "use them with --engine browser (or auto)"
        )
    return HttpEngine(url, **options), reason
