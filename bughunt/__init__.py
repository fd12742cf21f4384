"""BugHunt: an exploratory web-testing agent built on memgpt_lite."""

from memgpt_lite.log import logger as _logger

_logger.disable("bughunt")
