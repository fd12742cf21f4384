"""`AgentMemory`: one agent's whole memory behind one object.

It ties the store directory, recall storage, archival storage (opened on first use: Chroma and the
embedder are slow to start), the working context and the queue manager together, and persists the
agent state on every change. This is what the agent loop, BugHunt and the evaluations use.

    memory = AgentMemory.open("runs/a1", context_window=32_000, system_prompt="You are ...",
                              blocks=[Block(name="persona", value="...")])
    memory.append(Message.user("hi"))
    prompt = memory.prepare(tools)      # warns / flushes before the call
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pydantic import ValidationError

from memgpt_lite.context import (
    Block,
    ContextConfig,
    ContextManager,
    DeterministicSummarizer,
    PreparedPrompt,
    Summarizer,
    TokenCounter,
    WorkingContext,
)
from memgpt_lite.context.tokens import CLAUDE_SAFETY_MARGIN
from memgpt_lite.errors import ConfigError, ServerMismatch, StoreError, UsageError, format_validation_error
from memgpt_lite.llm.base import Model, StatedWindow
from memgpt_lite.log import logger
from memgpt_lite.messages import Message, ToolSpec
from memgpt_lite.state import AgentState, interrupted_results, load_state, orphaned_tool_calls, save_state
from memgpt_lite.storage.archival_reader import ArchivalReader
from memgpt_lite.storage.directory import StoreDirectory
from memgpt_lite.storage.embeddings import Embedder, describe_embedder, embedder_named
from memgpt_lite.storage.lock import StoreLock
from memgpt_lite.storage.recall import RecallStore

if TYPE_CHECKING:
    # Chroma (~0.5 s to import) loads when archival storage is first used, not with the module: a
    # session that never reaches archival memory (the demo, `inspect`, a key check) never pays for it.
    from memgpt_lite.storage.archival import ArchivalStore

DEFAULT_CONTEXT_WINDOW = 32_000
LOCK_NAME = "memgpt_lite.lock"
DEFAULT_SYSTEM_PROMPT = (
    "You are an agent with a MemGPT-style memory. Your context window is limited: the working context below "
    "holds the facts you keep in view (edit it with core_memory_append / core_memory_replace); older messages "
    "move to recall storage (conversation_search, conversation_search_date) and long-term facts belong in "
    "archival storage (archival_memory_insert, archival_memory_search)."
)
DEFAULT_BLOCKS = (Block(name="persona", value="", limit=2000), Block(name="human", value="", limit=2000))


@dataclass(frozen=True, slots=True)
class MemorySettings:
    """How to open an agent memory (`AgentMemory.open(path, settings)`); None means "the default" for a new
    store and "keep what is saved" for an existing one."""

    context_window: int | None = None
    embedder: Embedder | None = None
    chroma_url: str | None = None
    """Archival storage on a Chroma server instead of embedded in the store directory."""
    system_prompt: str | None = None
    blocks: list[Block] | None = None
    """Working-context blocks of a new store (an existing store keeps its own)."""
    summarizer: Summarizer | None = None
    encoding: str | None = None
    safety_margin: float | None = None
    warning: float | None = None
    flush: float | None = None
    evict_to: float | None = None
    model: Model | None = None
    """Counts prompts with the provider when `provider_counts` is on."""
    provider_counts: bool | None = None
    served_window: StatedWindow | None = None
    """The context size the model's server states (`AnthropicModel.stated_window()`): a new store's window
    defaults to it, and a window larger than it — the store's own or a given `context_window` — is refused
    with `ServerMismatch` before anything is written (every request past it would fail)."""
    create: bool = True
    read_only: bool = False


class AgentMemory:
    """Use `AgentMemory.open(...)`; the constructor is internal."""

    def __init__(
        self,
        store: StoreDirectory,
        recall: RecallStore,
        context: ContextManager,
        *,
        embedder: Embedder | None,
        chroma_url: str | None,
    ) -> None:
        self.store = store
        self.recall = recall
        self.context = context
        self._embedder = embedder
        self._chroma_url = chroma_url
        self._archival: ArchivalStore | None = None
        self._closed = False
        self._read_only = False
        self._lock: StoreLock | None = None
        self.repaired_tool_calls = 0
        self._deferring = 0
        self._unsaved = False
        context.on_change = self._write  # the context manager hands over its state on every change
        context.working_context.on_change = self._changed

    # -- opening ------------------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        store_dir: str | os.PathLike[str],
        settings: MemorySettings | None = None,
        **options: Any,
    ) -> AgentMemory:
        """Open (or create) the agent memory in `store_dir`, resuming its saved state exactly.

        `settings` says how (see `MemorySettings`); keyword options (`context_window=...`) are the same
        fields, applied on top of it. For a new store, unset fields take defaults. For an existing one the
        saved blocks, in-context messages and summary always win; `system_prompt`, the window and
        thresholds are replaced only when given. A store left by a killed process is repaired: messages
        being appended are re-linked (or dropped when they never reached recall) and tool calls without
        results get an error result.

        `read_only=True` (for inspection) opens an existing store without writing anything: no repair, and
        any change raises `UsageError`.
        """
        try:
            settings = replace(settings or MemorySettings(), **options)
        except TypeError as e:
            raise UsageError(f"AgentMemory.open: {e}") from None
        store = StoreDirectory.open(Path(store_dir), create=settings.create and not settings.read_only)
        # A reader takes no lock (inspect works beside a running agent); a writer must be the only one.
        lock = None if settings.read_only else StoreLock(store.path / LOCK_NAME, "agent store").acquire()
        try:
            return cls._open_locked(store, lock, settings)
        except BaseException:
            if lock is not None:
                lock.release()
            raise

    @classmethod
    def _open_locked(
        cls, store: StoreDirectory, lock: StoreLock | None, settings: MemorySettings
    ) -> AgentMemory:
        state = load_state(store)
        read_only, embedder = settings.read_only, settings.embedder
        if state is None:
            _refuse_orphaned_history(store)
        if read_only and state is None:
            raise StoreError(f"{store.path} has no agent state yet (nothing to inspect)")
        thresholds = ("context_window", "warning", "flush", "evict_to", "provider_counts")
        overrides = {k: getattr(settings, k) for k in thresholds if getattr(settings, k) is not None}
        new_store = state is None
        served = settings.served_window
        default_window = served.tokens if served is not None else DEFAULT_CONTEXT_WINDOW
        try:
            if state is None:
                state = AgentState(
                    config=ContextConfig(**{"context_window": default_window, **overrides}),
                    system_prompt=DEFAULT_SYSTEM_PROMPT
                    if settings.system_prompt is None
                    else settings.system_prompt,
                    blocks=list(DEFAULT_BLOCKS if settings.blocks is None else settings.blocks),
                    token_encoding=settings.encoding or "cl100k_base",
                    safety_margin=CLAUDE_SAFETY_MARGIN
                    if settings.safety_margin is None
                    else settings.safety_margin,
                )
            else:
                if overrides:
                    state.config = ContextConfig(**{**state.config.model_dump(), **overrides})
                if settings.system_prompt is not None:
                    state.system_prompt = settings.system_prompt
                if settings.encoding is not None:
                    state.token_encoding = settings.encoding
                if settings.safety_margin is not None:
                    state.safety_margin = settings.safety_margin
        except ValidationError as e:  # one line naming the field, not pydantic's multi-line report
            where = format_validation_error(e, "thresholds", every=False)
            raise ConfigError(f"bad memory configuration: {where}") from e
        except ValueError as e:
            raise ConfigError(f"bad memory configuration: {e}") from e
        if served is not None:
            _check_served_window(store, state.config.context_window, served, new_store)
        if embedder is not None and state.embedder is not None and embedder.name != state.embedder:
            raise StoreError(
                f"{store.path} holds vectors of embedder {state.embedder!r} ({describe_embedder(state.embedder)}); "
                f"it cannot be searched with {embedder.name!r}: open it without choosing an embedder (it "
                "remembers its own), or start a new store for the other one"
            )
        if new_store and embedder is not None:
            state.embedder = embedder.name  # remembered from the start, before archival storage exists
        recall = RecallStore(store.recall_path, read_only=read_only)
        try:
            messages = _resume_messages(recall, state)
            context = ContextManager(
                recall,
                TokenCounter(state.token_encoding, state.safety_margin),
                settings.summarizer or DeterministicSummarizer(),
                state.config,
                state.system_prompt,
                working_context=WorkingContext(state.blocks),
                messages=messages,
                summary=state.summary,
                summary_at=state.summary_at,
                warned=state.warned,
                counters=state.counters,
                model=settings.model,
                extra=state.extra,
                embedder=state.embedder,
            )
            context.last_tools_tokens = state.last_tools_tokens
            if embedder is None and state.embedder is not None:
                embedder = embedder_named(state.embedder)
            memory = cls(store, recall, context, embedder=embedder, chroma_url=settings.chroma_url)
            memory._lock = lock
            if read_only:
                memory._read_only = True
            else:
                memory.save()
                memory._repair_orphans()
        except BaseException:
            recall.close()
            raise
        return memory

    def _repair_orphans(self) -> None:
        for anchor, calls in orphaned_tool_calls(self.context.in_context):
            logger.warning("repairing {} interrupted tool call(s) after message {}", len(calls), anchor)
            self.context.insert_after(anchor, interrupted_results(calls))
            self.repaired_tool_calls += len(calls)

    # -- the parts ----------------------------------------------------------------------------------
    @property
    def working_context(self) -> WorkingContext:
        return self.context.working_context

    @property
    def counter(self) -> TokenCounter:
        return self.context.counter

    @property
    def embedder(self) -> Embedder | None:
        """The embedder this memory was opened with (None: the archival store's default)."""
        return self._embedder

    @property
    def archival(self) -> ArchivalStore:
        """Archival storage, opened on first use (embedded Chroma in the store, or the server at chroma_url)."""
        if self._archival is None:
            from memgpt_lite.storage.archival import ArchivalStore

            if self._chroma_url:
                self._archival = ArchivalStore(url=self._chroma_url, embedder=self._embedder)
            elif self._read_only:
                # The Chroma client writes on open; a reader reads Chroma's file itself (count, get_many).
                # a stand-in with ArchivalStore's reading methods (writes are refused before they get here)
                self._archival = cast(ArchivalStore, ArchivalReader(self.store.chroma_path))
                return self._archival
            else:
                self._archival = ArchivalStore(self.store.chroma_path, embedder=self._embedder)
            if self._archival.embedder.name != self.context.embedder and not self._read_only:
                self.context.embedder = self._archival.embedder.name
                self.save()
        return self._archival

    def has_archival(self) -> bool:
        """Whether archival storage exists (a server, or an embedded store created on disk)."""
        return bool(self._chroma_url) or (
            self.store.chroma_path.exists() and any(self.store.chroma_path.iterdir())
        )

    def archival_count(self) -> int:
        """Passages in archival storage; 0 without opening Chroma when none was ever created."""
        return self.archival.count() if self.has_archival() else 0

    # -- the operations the agent loop uses ---------------------------------------------------------
    def append(self, msg: Message) -> None:
        self.context.append(msg)

    def append_bounded(self, msg: Message) -> Message:
        """Append a model message or tool results; one too large for the context is replaced there by a
        bounded stand-in (the original stays in recall). Returns what joined the context."""
        return self.context.append_bounded(msg)

    def prepare(self, tools: list[ToolSpec] | None = None, max_tokens: int = 1024) -> PreparedPrompt:
        return self.context.prepare(tools, max_tokens=max_tokens)

    @property
    def extra(self) -> dict[str, Any]:
        """Application data saved with the agent state (call `save()` after changing it)."""
        return self.context.extra

    def state(self) -> AgentState:
        """The agent state as the context manager holds it (what `save()` writes)."""
        return self.context.state()

    def _changed(self) -> None:
        if self._deferring:
            self._unsaved = True  # the next write (the tool results' append) carries it
        else:
            self.save()

    @contextmanager
    def deferred_saves(self) -> Iterator[None]:
        """Within the block, a working-context edit waits for the next state write instead of writing its
        own. The agent loop runs tool calls inside it: the tool results' append then writes the state
        once, edits included. A process killed before that loses the edit, and resume answers the call
        as interrupted ("may or may not have taken effect"), so nothing is claimed that was not kept.
        An exception saves what is pending before it propagates."""
        self._deferring += 1
        try:
            yield
        except BaseException:
            self._deferring -= 1
            if self._unsaved and not self._closed:
                self.save()
            raise
        self._deferring -= 1

    def save(self) -> None:
        self._write(self.context.state())

    def _write(self, state: AgentState) -> None:
        """Write the context manager's state to `state.json` (atomically)."""
        if self._read_only:
            raise UsageError(f"memory of {self.store.path} was opened read-only")
        if self._closed:
            raise StoreError(f"memory of {self.store.path} is closed")
        save_state(self.store, state)
        self._unsaved = False

    def close(self) -> None:
        if self._closed:
            return
        if not self._read_only:
            self.save()
        self._closed = True
        try:
            self.recall.close()
            if self._archival is not None:
                self._archival.close()
        finally:
            if self._lock is not None:
                self._lock.release()

    def __enter__(self) -> AgentMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _resume_messages(recall: RecallStore, state: AgentState) -> list[Message]:
    """The in-context messages named by the state, plus pending ones that did reach recall."""
    ids = list(state.in_context_ids)
    for pid in state.pending_ids:
        if pid in recall:
            logger.info("resume: message {} reached recall before the crash; back in context", pid)
            ids.append(pid)
        else:
            logger.info("resume: message {} never reached recall; dropped", pid)
    try:
        return recall.get(ids)
    except StoreError as e:
        raise StoreError(
            f"the agent state names in-context messages that recall storage does not hold ({e}); "
            "the store is corrupt or its recall.sqlite was replaced"
        ) from e


def _check_served_window(store: StoreDirectory, window: int, served: StatedWindow, new_store: bool) -> None:
    """A window larger than the server's context would send requests the server refuses (or cuts)."""
    if window <= served.tokens:
        return
    if new_store:
        raise ServerMismatch(
            f"a context window of {window} tokens was asked for, but the server serves {served.tokens} "
            f"({served.source}); ask for at most {served.tokens}, or leave the window out to use the server's"
        )
    raise ServerMismatch(
        f"the store {store.path} has a context window of {window} tokens, but the server serves "
        f"{served.tokens} ({served.source}), so its requests would fail; start the server with a context "
        f"of at least {window} tokens (llama-server -c {window}), or use a new store (sized to the server)"
    )


def _refuse_orphaned_history(store: StoreDirectory) -> None:
    """A recall history without its `state.json` (deleted, lost in a copy) is refused: a fresh agent
    started over it would ignore every message it holds."""
    if not store.recall_path.exists():
        return
    try:
        with RecallStore(store.recall_path, read_only=True) as recall:
            held = recall.count()
    except StoreError:
        return  # not a readable history: opening it for real reports what is wrong with it
    if held:
        raise StoreError(
            f"{store.state_path} is missing but {store.recall_path} holds {held} messages; restore state.json "
            "from a backup, or move the store aside to start a new agent (starting one here would hide that "
            "history)"
        )
