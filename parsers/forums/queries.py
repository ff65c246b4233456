"""CSS queries for the page parsers: through one lexbor selector engine per thread, and shared
by the posts of a page.

A query costs a fixed amount before it looks at any node: its selector is parsed anew (lexbor
has no compiled selectors) into memory set up and freed for it, through an engine that
`node.css()` creates for each page on its first query and frees with the page. These
functions share one engine (per thread: an engine holds the state of the query it runs), and
`Posts` asks the common ancestor of a page's posts once per selector instead of each post.
All match exactly as `node.css()` / `node.css_first()` do on a parsed document: lexbor matches a
selector against the whole document, whatever node a query starts from (and the start node
itself can match).
"""
from __future__ import annotations

import threading

from selectolax.lexbor import LexborCSSSelector, LexborNode

_local = threading.local()


def _engine() -> LexborCSSSelector:
    engine = getattr(_local, "engine", None)
    if engine is None:
        engine = _local.engine = LexborCSSSelector()
    return engine


def every(scope: LexborNode, selector: str) -> list[LexborNode]:
    """What `selector` matches in `scope`'s subtree (the scope included), in page order."""
    return _engine().find(selector, scope)


def first(scope: LexborNode, selector: str) -> LexborNode | None:
    found = _engine().find_first(selector, scope)
    return found[0] if found else None


class Alone:
    """Each scope asks its own queries (a PM, an inbox row, a post's edit marker)."""
    every = staticmethod(every)
    first = staticmethod(first)


ALONE = Alone()


class Posts:
    """The matches inside each of a page's posts, one query per selector for them all.

    A match is given to the post above it; the nodes climbed to find that post are
    remembered, so that the page's later matches stop as soon as they reach one. Posts
    nested in posts (a hostile page can nest anything) are asked one by one instead.
    """

    def __init__(self, posts: list[LexborNode]):
        self.posts = posts
        self._index = {post.mem_id: i for i, post in enumerate(posts)}
        self.root, nested = _common_ancestor(posts, self._index)
        self._owner = None if nested else {self.root.mem_id: -1, **self._index}   # node id -> post (-1: none)
        self._found: dict[str, list[list[LexborNode]]] = {}

    def every(self, post: LexborNode, selector: str) -> list[LexborNode]:
        if self._owner is None:
            return every(post, selector)
        found = self._found.get(selector)
        if found is None:
            found = self._found[selector] = self._share(selector)
        return found[self._index[post.mem_id]]

    def first(self, post: LexborNode, selector: str) -> LexborNode | None:
        if self._owner is None:
            return first(post, selector)
        found = self.every(post, selector)
        return found[0] if found else None

    def _share(self, selector: str) -> list[list[LexborNode]]:
        shares: list[list[LexborNode]] = [[] for _ in self.posts]
        owners = self._owner
        for match in every(self.root, selector):
            climbed = []
            node = match
            while (owner := owners.get(node_id := node.mem_id)) is None:
                climbed.append(node_id)
                node = node.parent
            for node_id in climbed:
                owners[node_id] = owner
            if owner >= 0:
                shares[owner].append(match)
        return shares


def _common_ancestor(nodes: list[LexborNode], index: dict[int, int]) -> tuple[LexborNode, bool]:
    """The lowest node holding all of `nodes` (nodes of one page), and whether one of them lies
    inside another (`index`: their ids)."""
    chain: list[LexborNode] = []        # the first node and its ancestors, lowest first
    heights: dict[int, int] = {}
    nested = False
    node = nodes[0]
    while node is not None:
        heights[node.mem_id] = len(chain)
        chain.append(node)
        node = node.parent
        nested = nested or (node is not None and node.mem_id in index)
    top = 0
    for node in nodes[1:]:
        node = node.parent
        while node is not None and (height := heights.get(node.mem_id)) is None:
            nested = nested or node.mem_id in index
            node = node.parent
        top = max(top, height if node is not None else len(chain) - 1)
        nested = nested or (node is not None and height == 0)     # inside the first node
    return chain[top], nested
