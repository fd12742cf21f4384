"""The MemGPT memory functions, as typed tools over `AgentMemory`.

`send_message` is the only way the model talks to the user; everything else it writes is private inner
monologue. The core-memory functions edit the working context (always in the prompt), the conversation
searches page through recall storage (every message ever, including those evicted from the context),
and the archival functions write and search long-term memory. Every search result states the true
total and page count, so the model knows when to ask for the next page.

Each function also gets `request_heartbeat` from the registry: true asks for another step right away.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal

from memgpt_lite.errors import ToolError, UsageError
from memgpt_lite.messages import Message
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
) -> str:
    """Search the whole conversation history (including messages no longer in your context) by words.

    Args:
        query: Words to look for; messages matching any word are returned, best first.
        roles: Only messages from these roles (user, assistant, system, tool).
        start_date: Earliest date/time, ISO format (e.g. 2024-05-01 or 2024-05-01T13:30:00Z).
        end_date: Latest date/time, ISO format; a bare date includes that whole day.
        page: Page of results, starting at 0.
    """
    with _model_visible_errors():
        result = _memory(ctx).recall.search(
            query, roles=roles, start_date=start_date, end_date=end_date, page=page, page_size=ctx.page_size
        )
    lines = [_header("messages", result.total, page, result.pages, len(result.items), ctx.page_size)]
    lines += [_message_line(hit.message) for hit in result.items]
    return "\n".join(lines)


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
    with _model_visible_errors():
        result = _memory(ctx).recall.search_date(
            start_date, end_date, roles=roles, page=page, page_size=ctx.page_size
        )
    lines = [_header("messages", result.total, page, result.pages, len(result.items), ctx.page_size)]
    lines += [_message_line(hit.message) for hit in result.items]
    return "\n".join(lines)


def archival_memory_insert(
    ctx: ToolContext, content: str, importance: int | None = None, tags: list[str] | None = None
) -> str:
    """Save a fact or note to archival memory (long-term, searchable, outlives the session).

    Args:
        content: The text to store; write it so it makes sense on its own later.
        importance: 1 (trivia) to 10 (essential); estimated when left out.
        tags: Labels to filter by later, e.g. ["preference", "bug"].
    """
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
        p = hit.passage
        flags = f" SUPERSEDED by {p.superseded_by}" if p.status == "superseded" else ""
        tags_text = f" tags={','.join(p.tags)}" if p.tags else ""
        lines.append(
            f"[{p.created_at:%Y-%m-%d %H:%M} id={p.id} importance={p.importance}{tags_text}{flags}] {_clip(p.content)}"
        )
    return "\n".join(lines)


MEMORY_FUNCTIONS: tuple[Callable[..., str], ...] = (
    send_message,
    core_memory_append,
    core_memory_replace,
    conversation_search,
    conversation_search_date,
    archival_memory_insert,
    archival_memory_search,
)


def memory_functions() -> list[Callable[..., str]]:
    """The seven MemGPT functions, for `ToolRegistry(memory_functions())`."""
    return list(MEMORY_FUNCTIONS)


def register_memory_functions(registry: ToolRegistry) -> ToolRegistry:
    for fn in MEMORY_FUNCTIONS:
        registry.register(fn)
    return registry
