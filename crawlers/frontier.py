"""Depth-first frontier bookkeeping: which links to request, at which depth, and dedup.

Scrapy's scheduler decides the ORDER (LIFO queues = depth-first); this class
decides WHAT is requested, so that the final entry set depends only on the
seeds and the depth limit, never on fetch order or on interruptions:

* every entry is stored once, under its canonical key (see crawlers.keys);
* an entry counts at the smallest depth at which any path reaches it. When a
  stored entry is reached again through a shorter path, its stored links are
  expanded again from the new depth, without refetching the page. Depth-first
  order alone would otherwise cut off entries first met deep in one branch;
* after a restart, stored entries are restored un-expanded; offering the seeds
  again re-expands the stored link graph in memory and requests exactly the
  links that were never stored, at their true depths;
* links that failed for good (a 404 or 410, remembered in the store's
  failures file) are never requested again, in this run or a resumed one;
* a lemma id does not make two different entries one: a page that claims the
  id of an entry stored under another title is not a copy of it (it is stored
  under its own title, without the disputed id, and counted), and a link
  `/item/<title>/<id>` whose title is not the stored holder's is fetched.
  So a page claiming another page's lemma id can never displace it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable

from crawlers.keys import entry_ident, entry_keys, link_key, link_title


@dataclass
class StoredNode:
    """A stored entry as the frontier sees it: its best depth so far and its out-links."""

    key: str
    links: list[str]
    seed: str | None
    depth: float = math.inf  # best depth at which its links were expanded in this run
    title: str = ""  # normalised title: who holds the lemma id
    ident: str = ""  # normalised title|subtitle


@dataclass
class Offer:
    """A request the spider should make."""

    url: str
    depth: int
    seed: str | None
    key: str


@dataclass
class Frontier:
    depth_limit: int | None = None
    max_pages: int | None = None
    nodes: dict[str, StoredNode] = field(default_factory=dict)  # canonical key -> node
    aliases: dict[str, str] = field(default_factory=dict)  # any key -> canonical key
    pending: dict[str, int] = field(default_factory=dict)  # link key -> best requested depth
    dead: set[str] = field(default_factory=set)  # link keys that failed for good in an earlier run (404, 410)
    failed: set[str] = field(default_factory=set)  # link keys whose request ended without an entry in this run
    dead_skipped: int = 0  # links not requested because they failed for good before
    # Several crawler processes on one frontier (crawlers/shared_frontier.py): an entry another
    # crawler claimed is left to it (links are claimed when fetched, by a downloader middleware).
    # None: this crawler is alone.
    claims: Any = None

    # -- restore --------------------------------------------------------------
    def restore(self, entry: dict[str, Any]) -> bool:
        """Register an entry read back from the output; False when it duplicates one already seen."""
        keys = entry_keys(entry)
        if any(k in self.aliases for k in keys[:1]):
            return False
        canon = keys[0]
        self.nodes[canon] = self._node(canon, entry)
        for k in keys:
            self.aliases.setdefault(k, canon)
        if entry.get("url"):
            self.aliases.setdefault(link_key(entry["url"]), canon)
        return True

    @staticmethod
    def _node(canon: str, entry: dict[str, Any]) -> StoredNode:
        links = [link["url"] for link in entry.get("links") or [] if link.get("url")]
        title, _, _ = entry_ident(entry).partition("|")
        return StoredNode(canon, links, entry.get("seed"), title=title, ident=entry_ident(entry))

    def mark_dead(self, key: str) -> None:
        """A link that failed for good: never request it again."""
        self.dead.add(key)
        self.pending.pop(key, None)

    def fail(self, key: str) -> None:
        """A request ended without an entry (error, no content): no longer pending, not asked again this run."""
        self.pending.pop(key, None)
        self.failed.add(key)

    def _link_canon(self, key: str, url: str) -> tuple[str, str | None]:
        """(key, canonical key or None) of a link; an id link naming another title is another key."""
        canon = self.aliases.get(key)
        if canon is not None and key.startswith("id:"):
            title = link_title(url)
            node = self.nodes.get(canon)
            if title and node is not None and node.title and title != node.title:
                key = f"{key}@{title}"
                canon = self.aliases.get(key)
        return key, canon

    def add_alias(self, key: str, canon: str) -> None:
        if canon in self.nodes:
            self.aliases.setdefault(key, canon)

    @property
    def stored_count(self) -> int:
        return len(self.nodes)

    def resolve(self, url: str) -> str | None:
        return self.aliases.get(link_key(url))

    def within_limit(self, depth: int) -> bool:
        return self.depth_limit is None or depth <= self.depth_limit

    # -- offering links ---------------------------------------------------------
    def offer(self, url: str, depth: int, seed: str | None, key: str | None = None) -> list[Offer]:
        """A link met at `depth`: the requests it calls for (none, one, or re-expansions)."""
        out: list[Offer] = []
        stack: list[tuple[str, int, str | None, str | None]] = [(url, depth, seed, key)]
        while stack:
            url, depth, seed, key = stack.pop()
            if not self.within_limit(depth):
                continue
            key, canon = self._link_canon(key or link_key(url), url)
            if key in self.dead:
                self.dead_skipped += 1
                continue
            if key in self.failed:
                continue
            if canon is not None:
                node = self.nodes[canon]
                if depth < node.depth:
                    node.depth = depth
                    if self.within_limit(depth + 1):
                        for link in reversed(node.links):
                            stack.append((link, depth + 1, node.seed, None))
                continue
            best = self.pending.get(key)
            if best is not None:
                if depth < best:
                    self.pending[key] = depth  # the response will be expanded from here
                continue
            self.pending[key] = depth
            out.append(Offer(url, depth, seed, key))
        return out

    # -- accepting fetched entries ------------------------------------------------
    def accept(
        self, entry: dict[str, Any], request_key: str, request_depth: int, urls: Iterable[str] = ()
    ) -> tuple[str, int, list[Offer]]:
        """A parsed entry arrived. Returns (status, depth, follow-up requests).

        status is "new" (store it at `depth`), "duplicate" (already stored under
        its canonical key; only re-expanded if reached shallower), "conflict"
        (new, but its lemma id is held by an entry of another title: the id is
        removed from `entry`, which is stored under its title), "elsewhere"
        (another crawler of a shared frontier stores it), or "cap" (max-pages
        reached; not stored).
        """
        depth = min(request_depth, self.pending.pop(request_key, request_depth))
        keys = entry_keys(entry)
        canon = self.aliases.get(keys[0])
        disputed = None
        if canon is not None and keys[0].startswith("id:") and self.nodes[canon].ident != entry_ident(entry):
            disputed = keys[0]
            entry["lemma_id"] = None
            keys = entry_keys(entry)
            canon = self.aliases.get(keys[0])
        if canon is not None:
            for k in (request_key, *map(link_key, urls)):
                self.add_alias(k, canon)
            node = self.nodes[canon]
            follow = self.offer_node(node, depth)
            return "duplicate", depth, follow
        if self.max_pages is not None and len(self.nodes) >= self.max_pages:
            return "cap", depth, []
        canon = keys[0]
        if self.claims is not None and not self.claims.claim_entry(canon):
            return "elsewhere", depth, []  # another crawler stores this entry (reached by another link)
        node = self._node(canon, entry)
        self.nodes[canon] = node
        for k in (*keys, request_key, *map(link_key, urls)):
            if k != disputed:  # the disputed id stays with its holder
                self.aliases.setdefault(k, canon)
        return ("new" if disputed is None else "conflict"), depth, self.offer_node(node, depth)

    def offer_node(self, node: StoredNode, depth: int) -> list[Offer]:
        """Expand a stored node's links from `depth` if that is better than before."""
        if depth >= node.depth:
            return []
        node.depth = depth
        out: list[Offer] = []
        if self.within_limit(depth + 1):
            for link in node.links:
                out.extend(self.offer(link, depth + 1, node.seed))
        return out
