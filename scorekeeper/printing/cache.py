"""What printing keeps in memory by a key, least recently used out: the PDFs made (the sheets'
and the season summaries' alike), and the row heights measured."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from threading import Lock
from typing import Generic, TypeVar

BLANK_CACHE_SIZE = 64

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class CachedPdf:
    body: bytes
    etag: str


class RecentItems(Generic[V]):
    """The ``size`` items used most recently, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: Hashable, item: V) -> None:
        with self._lock:
            self._items[key] = item
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


class PdfCache(RecentItems[CachedPdf]):
    """The most recently made PDFs."""

    def __init__(self, size: int = BLANK_CACHE_SIZE) -> None:
        super().__init__(size)
