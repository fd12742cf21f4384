"""What a local model server says about itself: the context size it serves.

A Messages-API server (llama.cpp's `llama-server`, Ollama) runs a model in a context of fixed size and
refuses (llama.cpp: HTTP 400 "request (N tokens) exceeds the available context size") or silently cuts
(Ollama) a prompt larger than it. A store that assumes a larger window never feels memory pressure,
so the command line asks the server first (`stated_context_window`) and sizes the store to the answer.

- llama.cpp: `GET /props` → `default_generation_settings.n_ctx` (the context of one slot, what a request
  may use; `n_ctx` at the top level in older builds).
- Ollama (recognised by `GET /api/version`): the `context_length` of the model in `GET /api/ps` while it
  is loaded, else `num_ctx` in `POST /api/show`'s parameters when the model sets one. Its model info's
  `<arch>.context_length` is the length the model was trained for, not what Ollama serves (4096 unless
  configured), so it is not used.

Anything else (the Anthropic API, a server that states nothing) gives None. Only GET requests are sent
to a server not recognised as Ollama, and every failure means "not stated".
"""

from __future__ import annotations

import re
from typing import Any

import httpx2

from memgpt_lite.llm.base import StatedWindow
from memgpt_lite.log import logger

PROBE_TIMEOUT_S = 10.0
_NUM_CTX = re.compile(r"^\s*num_ctx\s+(\d+)\s*$", re.MULTILINE)


def _positive(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None


def _get_json(client: httpx2.Client, url: str, timeout: float) -> Any:
    response = client.get(url, timeout=timeout)
    if response.status_code != 200:
        return None
    return response.json()


def _llama_cpp(client: httpx2.Client, base: str, timeout: float) -> StatedWindow | None:
    props = _get_json(client, f"{base}/props", timeout)
    if not isinstance(props, dict):
        return None
    settings = props.get("default_generation_settings")
    n_ctx = _positive(settings.get("n_ctx")) if isinstance(settings, dict) else None
    n_ctx = n_ctx or _positive(props.get("n_ctx"))
    return StatedWindow(n_ctx, f"{base}/props n_ctx") if n_ctx else None


def _ollama(client: httpx2.Client, base: str, model: str, timeout: float) -> StatedWindow | None:
    version = _get_json(client, f"{base}/api/version", timeout)
    if not isinstance(version, dict) or "version" not in version:
        return None  # not Ollama: send it nothing else
    running = _get_json(client, f"{base}/api/ps", timeout)
    for entry in running.get("models", []) if isinstance(running, dict) else []:
        if isinstance(entry, dict) and model in (entry.get("name"), entry.get("model")):
            n = _positive(entry.get("context_length"))
            if n:
                return StatedWindow(n, f"{base}/api/ps context_length")
    response = client.post(f"{base}/api/show", json={"model": model}, timeout=timeout)
    shown = response.json() if response.status_code == 200 else None
    parameters = shown.get("parameters") if isinstance(shown, dict) else None
    match = _NUM_CTX.search(parameters) if isinstance(parameters, str) else None
    return StatedWindow(int(match.group(1)), f"{base}/api/show num_ctx") if match else None


def stated_context_window(
    client: httpx2.Client, base_url: str, model: str, timeout: float = PROBE_TIMEOUT_S
) -> StatedWindow | None:
    """The context size the server at `base_url` states for `model`, or None when it states none.
    A server that cannot be reached or does not answer within `timeout` is asked nothing more."""
    base = base_url.rstrip("/")
    for name in ("llama.cpp", "ollama"):
        try:
            if name == "llama.cpp":
                found = _llama_cpp(client, base, timeout)
            else:
                found = _ollama(client, base, model, timeout)
        except httpx2.TransportError as err:  # unreachable or silent: the request itself will say so
            logger.debug("context-size probe of {} failed: {}", base, err)
            return None
        except (httpx2.HTTPError, ValueError) as err:  # an answer that is not JSON: says nothing
            logger.debug("context-size probe of {} ({}) failed: {}", base, name, err)
            continue
        if found is not None:
            logger.info("{} serves a context of {} tokens ({})", base, found.tokens, found.source)
            return found
    return None


CONNECT_TIMEOUT_S = 5.0


def check_reachable(base_url: str, model: str, connect_timeout: float = CONNECT_TIMEOUT_S) -> None:
    """Fail at once, with one line, when nothing answers at `base_url`: a refused or silent connection
    would otherwise cost every retry's backoff of the first model call (13–22 s) before the same
    error. Any HTTP answer, even 404, means a server is there; only GET is sent."""
    from memgpt_lite.errors import ModelError

    timeout = httpx2.Timeout(
        connect_timeout, read=connect_timeout, write=connect_timeout, pool=connect_timeout
    )
    try:
        with httpx2.Client(timeout=timeout) as client:
            client.get(base_url.rstrip("/") + "/")
    except (httpx2.ConnectError, httpx2.ConnectTimeout) as err:
        raise ModelError(
            f"{model}: model provider at {base_url} unreachable: no server answers "
            f"({type(err).__name__}: {err}); start it or fix --base-url"
        ) from None
    except httpx2.TransportError as err:  # connected, then slow or odd: the model call will say more
        logger.debug("reachability check of {}: {}", base_url, err)
