"""BugHunt: an exploratory web-testing agent built on memgpt_lite."""

from loguru import logger as _logger

_logger.disable("bughunt")
