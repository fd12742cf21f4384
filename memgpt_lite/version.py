"""The package version, below every layer (the store marker records it)."""

__version__ = "0.1.0"
