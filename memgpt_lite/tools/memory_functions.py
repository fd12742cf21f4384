"""The MemGPT memory functions, as typed tools over `AgentMemory`.

`send_message` is the only way the model talks to the user; everything else it writes is private inner
monologue. The core-memory functions edit the working context (always in the prompt), the conversation
searches page through recall storage (every message ever, including those evicted from the context),
and the archival functions write and search long-term memory. Every search result states the true
total and page count, so the model knows when to ask for the next page.

Each function also gets `request_heartbeat` from the registry: true asks for another step right away.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal

from memgpt_lite.errors import ToolError, UsageError
from memgpt_lite.messages import Message
from memgpt_lite.search import recall_search
from memgpt_lite.tools.redaction import redact
from memgpt_lite.tools.registry import ToolContext, ToolRegistry

SNIPPET_CHARS = 400
Role = Literal["user", "assistant", "system", "tool"]


@contextmanager
def _model_visible_errors() -> Iterator[None]:
    # Bad dates or page numbers come from the model: it should read the reason and retry.
    try:
        yield
    except (UsageError, ValueError) as err:
        raise ToolError(str(err)) from err


def _memory(ctx: ToolContext) -> Any:
    if ctx.memory is None:
        raise ToolError("memory is not available to this tool call")
    return ctx.memory


def _clip(text: str, limit: int = SNIPPET_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _header(kind: str, total: int, page: int, pages: int, shown: int, page_size: int) -> str:
    if total == 0:
        return f"No {kind} found."
    if shown == 0:
        return f"{total} {kind} in all, but page {page} is past the end (pages are 0..{pages - 1})."
    first = page * page_size + 1
    more = f" More: page={page + 1}." if page + 1 < pages else " This is the last page."
    return f"Showing {kind} {first}-{first + shown - 1} of {total} (page {page} of 0..{pages - 1}).{more}"


SEARCH_TOOLS = frozenset({"conversation_search", "conversation_search_date", "archival_memory_search"})
FETCH_CAP = 1000
"""Matches fetched per conversation search so the agent's own search activity can be filtered out."""


def is_search_echo(msg: Message) -> bool:
    """The agent's own searches and their results: they repeat the query and earlier hits, so a search that
    found them would find more of itself with every call."""
    if msg.role == "tool":
        results = msg.tool_results_parts
        return bool(results) and all(r.name in SEARCH_TOOLS for r in results)
    if msg.role == "assistant":
        calls = msg.tool_calls
        return bool(calls) and all(c.name in SEARCH_TOOLS for c in calls)
    return False


def _search_page(search: Callable[..., Any], page: int, page_size: int) -> tuple[list[Message], int, bool]:
    """One page of recall hits without search echoes: (messages, total, exact)."""
    if page < 0:
        raise ToolError(f"page must be 0 or more (pages are 0-based), got {page}")
    with _model_visible_errors():
        fetched = search(page=0, page_size=FETCH_CAP)
    kept = [h.message for h in fetched.items if not is_search_echo(h.message)]
    exact = fetched.total <= FETCH_CAP
    total = len(kept) if exact else fetched.total - (len(fetched.items) - len(kept))
    return kept[page * page_size : (page + 1) * page_size], total, exact


def _format_messages(messages: list[Message], total: int, exact: bool, page: int, page_size: int) -> str:
    pages = -(-total // page_size) if total else 0
    head = _header("messages", total, page, pages, len(messages), page_size)
    if not exact:
        head += " (over 1000 matches: narrow the query or the dates to see them all)"
    return "\n".join([head, *(_message_line(m) for m in messages)])


def _message_line(msg: Message) -> str:
    return f"[{msg.created_at:%Y-%m-%d %H:%M} {msg.role} id={msg.id}] {_clip(msg.text)}"


def send_message(ctx: ToolContext, message: str) -> str:
    """Send a message to the user. The user sees nothing else you write.

    Args:
        message: The complete message for the user.
    """
    if not message.strip():
        raise ToolError("message is empty; write what the user should read")
    ctx.outbox.append(message)
    return "Message sent."


def core_memory_append(ctx: ToolContext, name: str, content: str) -> str:
    """Append a line to a block of your core memory (the working context, always in your prompt).

    Args:
        name: The block to edit, e.g. "human" or "persona".
        content: The text to add, on a new line.
    """
    block = _memory(ctx).working_context.append(name, content)
    return f"Appended to {name} ({len(block.value)}/{block.limit} characters used)."


def core_memory_replace(ctx: ToolContext, name: str, old_content: str, new_content: str) -> str:
    """Replace exact text in a block of your core memory; an empty new_content deletes it.

    Args:
        name: The block to edit, e.g. "human" or "persona".
        old_content: The exact text to replace; it must occur exactly once.
        new_content: The replacement text.
    """
    block = _memory(ctx).working_context.replace(name, old_content, new_content)
    return f"Replaced in {name} ({len(block.value)}/{block.limit} characters used)."


def conversation_search(
    ctx: ToolContext,
    query: str,
    roles: list[Role] | None = None,
    start_date: str | None = None,
    end_date: str | None = None,
    page: int = 0,
    mode: Literal["hybrid", "words"] = "hybrid",
) -> str:
    """Search the whole conversation history (including messages no longer in your context).

    Args:
        query: What to look for: words, names, or a short description of what was said.
        roles: Only messages from these roles (user, assistant, system, tool).
        start_date: Earliest date/time, ISO format (e.g. 2024-05-01 or 2024-05-01T13:30:00Z).
        end_date: Latest date/time, ISO format; a bare date includes that whole day.
        page: Page of results, starting at 0.
        mode: "hybrid" ranks by words and meaning, including the turns around a match (best for
            questions); "words" returns only messages containing a query word, with an exact count.
    """
    # Hybrid search (lexical + dense, over turns and their neighbours): on LoCoMo it finds 79% of
    # evidence turns in the top 10 where plain BM25 finds 55% (docs/locomo.md).
    memory = _memory(ctx)
    engine = recall_search(memory) if mode == "hybrid" else memory.recall

    def search(page: int, page_size: int) -> Any:
        return engine.search(
            query, roles=roles, start_date=start_date, end_date=end_date, page=page, page_size=page_size
        )

    messages, total, exact = _search_page(search, page, ctx.page_size)
    return _format_messages(messages, total, exact, page, ctx.page_size)


def conversation_search_date(
    ctx: ToolContext, start_date: str, end_date: str, roles: list[Role] | None = None, page: int = 0
) -> str:
    """List the conversation between two dates, oldest first (including messages no longer in context).

    Args:
        start_date: Start, ISO format (e.g. 2024-05-01 or 2024-05-01T13:30:00Z).
        end_date: End, ISO format; a bare date includes that whole day.
        roles: Only messages from these roles (user, assistant, system, tool).
        page: Page of results, starting at 0.
    """
    recall = _memory(ctx).recall

    def search(page: int, page_size: int) -> Any:
        return recall.search_date(start_date, end_date, roles=roles, page=page, page_size=page_size)

    messages, total, exact = _search_page(search, page, ctx.page_size)
    return _format_messages(messages, total, exact, page, ctx.page_size)


def archival_memory_insert(
    ctx: ToolContext, content: str, importance: int | None = None, tags: list[str] | None = None
) -> str:
    """Save a fact or note to archival memory (long-term, searchable, outlives the session).

    Args:
        content: The text to store; write it so it makes sense on its own later.
        importance: 1 (trivia) to 10 (essential); estimated when left out.
        tags: Labels to filter by later, e.g. ["preference", "bug"].
    """
    if not content.strip():
        raise ToolError("content is empty; write the fact or note to store")
    cleaned = redact(content)
    provenance = [ctx.call.id] if ctx.call is not None else None
    with _model_visible_errors():
        passage = _memory(ctx).archival.insert(
            cleaned.text, importance=importance, tags=tags, provenance=provenance
        )
    note = f" {cleaned.summary()} before storing." if cleaned.changed else ""
    return f"Saved to archival memory as {passage.id} (importance {passage.importance}).{note}"


def archival_memory_search(
    ctx: ToolContext,
    query: str,
    page: int = 0,
    tags: list[str] | None = None,
    since: str | None = None,
    until: str | None = None,
) -> str:
    """Search archival memory, ranked by relevance, importance and recency.

    Args:
        query: What you are looking for, in words.
        page: Page of results, starting at 0.
        tags: Only passages with any of these tags.
        since: Only passages created at or after this ISO date/time.
        until: Only passages created at or before this ISO date/time; a bare date includes that day.
    """
    with _model_visible_errors():
        result = _memory(ctx).archival.search(
            query, page=page, page_size=ctx.page_size, tags=tags, since=since, until=until
        )
    lines = [_header("passages", result.total, page, result.pages, len(result.items), ctx.page_size)]
    for hit in result.items:
        lines.extend(_passage_lines(hit.passage, similarity=hit.cosine))
    return "\n".join(lines)


def exact_pattern(text: str) -> re.Pattern[str]:
    """`text` as a whole identifier: "BH-15" is not in "BH-150", "1.3" not in "1.3.2", a path not in a
    longer path."""
    return re.compile(rf"(?<![\w/.-]){re.escape(text.strip())}(?![\w/-]|\.\w)", re.IGNORECASE)


def _passage_text(p: Any) -> str:
    values = [p.content, *(_meta_value(v) for v in p.meta.values() if v not in (None, "", [], {}))]
    return "\n".join([*values, *p.tags, *p.provenance])


def archival_memory_lookup(ctx: ToolContext, text: str, query: str | None = None, page: int = 0) -> str:
    """Find archival passages that contain an exact identifier — a ticket id, a file path, a version, a
    date — in their text or fields; superseded ones included (marked). Use it before a ranked search
    whenever the question names such an identifier.

    Args:
        text: The identifier exactly as written, e.g. "BH-142", "app/search/paginate.py", "1.3.2".
        query: Optional: order the matches by similarity to this text (e.g. the question); else newest first.
        page: Page of results, starting at 0.
    """
    if not text.strip():
        raise ToolError("text is empty; give the identifier to look up")
    if page < 0:
        raise ToolError(f"page must be 0 or more (pages are 0-based), got {page}")
    archival = _memory(ctx).archival
    pattern = exact_pattern(text)
    found = [p for p in archival.iter_passages() if pattern.search(_passage_text(p))]
    found.sort(key=lambda p: (p.created_at, p.id), reverse=True)
    similarity: dict[str, float] = {}
    if query and query.strip() and found:
        similarity = archival.similarity(query, [p.id for p in found])
        found.sort(key=lambda p: similarity.get(p.id, -1.0), reverse=True)
    size = ctx.page_size
    pages = -(-len(found) // size) if found else 0
    shown = found[page * size : (page + 1) * size]
    lines = [_header("passages", len(found), page, pages, len(shown), size)]
    for p in shown:
        lines.extend(_passage_lines(p, similarity=similarity.get(p.id)))
    return "\n".join(lines)


META_VALUE_CHARS = 80
META_LINE_CHARS = 400


def _meta_value(value: Any) -> str:
    if isinstance(value, list | tuple | set):
        text = ",".join(str(v) for v in value)
    elif isinstance(value, dict):
        text = ",".join(f"{k}:{v}" for k, v in value.items())
    else:
        text = str(value)
    # "; " separates fields on the line, so a value must not contain it.
    return _clip(text.replace(";", ","), META_VALUE_CHARS)


def _passage_lines(p: Any, similarity: float | None = None) -> list[str]:
    """A hit as the model reads it: its status first (a superseded passage is history, not support),
    then an indented line with where it came from and what it is about (the passage's structured
    fields, provenance and the passage it replaces), so an agent can check it names what was asked."""
    status = "superseded" if p.status == "superseded" else "current"
    flags = f" status={status}" + (f" superseded_by={p.superseded_by}" if p.superseded_by else "")
    tags_text = f" tags={','.join(p.tags)}" if p.tags else ""
    # The query's cosine similarity, absolute (the ranking's relevance is normalised per search).
    rel = f" similarity={similarity:.2f}" if similarity is not None else ""
    head = f"[{p.created_at:%Y-%m-%d %H:%M} id={p.id} importance={p.importance}{rel}{tags_text}{flags}] {_clip(p.content)}"
    fields: list[str] = []
    seen: set[str] = {p.id, p.created_at.isoformat()}
    for key, value in p.meta.items():
        if value is None or value == "" or value == [] or value == {}:
            continue
        text = _meta_value(value)
        if text in seen:  # the id, the date or another field's value again (e.g. speaker = author)
            continue
        seen.add(text)
        fields.append(f"{key}={text}")
    if p.provenance:
        fields.append(f"provenance={_meta_value(p.provenance)}")
    if p.supersedes:
        fields.append(f"supersedes={p.supersedes}")
    if not fields:
        return [head]
    return [head, "  " + _clip("; ".join(fields), META_LINE_CHARS)]


MEMORY_FUNCTIONS: tuple[Callable[..., str], ...] = (
    send_message,
    core_memory_append,
    core_memory_replace,
    conversation_search,
    conversation_search_date,
    archival_memory_insert,
    archival_memory_search,
)


EXACT_LOOKUP_FUNCTIONS: tuple[Callable[..., str], ...] = (archival_memory_lookup,)
"""Not one of MemGPT's seven: an exact-identifier lookup an agent can be given besides them."""


def memory_functions() -> list[Callable[..., str]]:
    """The seven MemGPT functions, for `ToolRegistry(memory_functions())`."""
    return list(MEMORY_FUNCTIONS)


def register_memory_functions(registry: ToolRegistry) -> ToolRegistry:
    for fn in MEMORY_FUNCTIONS:
        registry.register(fn)
    return registry
