"""memgpt_lite: a MemGPT-style agent-memory framework (context window = RAM, storage = disk)."""

__version__ = "0.1.0"

from loguru import logger as _logger

# Quiet by default: applications enable with `logger.enable("memgpt_lite")`.
_logger.disable("memgpt_lite")
