"""A remembered link table with only the minimal `KnownLinks` protocol (membership and `links`), like
the retest view: it cannot list itself."""

from __future__ import annotations


class KnownTable:
    def __init__(self, table):
        self.table = table

    def __contains__(self, node):
        return node in self.table

    def links(self, node):
        return self.table.get(node, ())
