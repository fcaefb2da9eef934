"""HTML to PDF with WeasyPrint: only the app's own static files, rows stretched to the page.

Rendering never reaches the network or the file system beyond the static folder: the
`StaticFileFetcher` refuses every other URL. One `FontConfiguration` is kept for the process,
so the sheet's fonts are loaded once; WeasyPrint is not thread-safe, so renders take turns.
Every layout is first admitted by the context (``RenderContext.admit``): the app counts it
against the client's limit and holds one of the machine's render slots while it runs.

What a layout costs beyond the page itself is spared: the static style sheets a page names
(``stylesheets``) are parsed once a process and given to every later layout, their links then
read as empty; and the cyclic garbage collector waits while WeasyPrint works (a layout makes
a few hundred thousand objects, enough to start full collections of the whole process, which
cost as much again as the layout), collecting the layout's garbage when it is done.

A context with a ``nice`` above 0 lays pages out in a process of its own at that lower
priority (one for each process that renders, started on first use, ``render_process``): a
render then takes only the processor time that requests, deal saves first, leave over, and a
worker waiting for it holds no processor. A render process that died is replaced: the render
that met it raises ``RendererGone``, the next one starts a new process.
"""

from __future__ import annotations

import atexit
import gc
import logging
import mimetypes
import os
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar
from urllib.parse import unquote, urlsplit

from weasyprint import CSS, HTML
from weasyprint.document import Document
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse
from werkzeug.security import safe_join

from scorekeeper.printing.cache import RecentItems
from scorekeeper.printing.geometry import MAX_ROW_PT, MIN_ROW_PT, Paper
from scorekeeper.printing.kept import KeptSheets
from scorekeeper.printing.render_process import RendererGone, RenderProcess
from scorekeeper.static_files import digest_of, original_name

R = TypeVar("R")

log = logging.getLogger(__name__)

END_ANCHOR = "sheet-end"
"""The id of an empty element after the sheet's last line: where the content ends."""

BLOCK_ANCHORS = ("deal-1", "deal-2")
"""The ids of the first two deals' row groups: one deal's height is the distance between them."""

CSS_PX_PER_PT = 96 / 72
FIT_SAFETY_PT = 2.0
"""Space left unused at the foot of the page so rounding never pushes a line over."""

_render_lock = threading.Lock()
"""Held around every layout, and around every use of ``_renderer``."""
_font_config: FontConfiguration | None = None
_renderer: RenderProcess | None = None


class RefusedURL(ValueError):
    """The sheet asked for something other than one of the app's static files."""


CSS_TYPE = "text/css"


class StaticFileFetcher(URLFetcher):
    """Serves URLs under `static_url` from `static_folder`, and refuses every other URL.

    The style sheets named in ``parsed`` are answered empty: the layout is given them parsed.
    """

    def __init__(
        self, static_url: str, static_folder: str | Path, parsed: tuple[str, ...] = ()
    ) -> None:
        super().__init__(timeout=1, allowed_protocols=())
        self.static_url = static_url if static_url.endswith("/") else static_url + "/"
        self.static_folder = str(static_folder)
        self.parsed = frozenset(parsed)

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        if not url.startswith(self.static_url):
            log.warning("Sheet rendering refused %s", url)
            raise RefusedURL(f"only the app's static files may be fetched, not {url}")
        relative = unquote(urlsplit(url[len(self.static_url) :]).path)
        relative = original_name(self.static_folder, relative) or relative
        if relative in self.parsed:
            return URLFetcherResponse(url, b"", {"Content-Type": CSS_TYPE})
        path = safe_join(self.static_folder, relative)
        if path is None or not Path(path).is_file():
            raise RefusedURL(f"no such static file: {relative}")
        mime_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
        body = Path(path).read_bytes()
        return URLFetcherResponse(url, body, {"Content-Type": mime_type})


def _fonts() -> FontConfiguration:
    global _font_config
    if _font_config is None:
        _font_config = FontConfiguration()
    return _font_config


_parsed_sheets: dict[tuple[str, str, str, str | None], CSS] = {}
"""Static style sheets parsed, by address, folder, name and the digest of the file's content."""


def _parsed(static_url: str, static_folder: str, names: tuple[str, ...]) -> list[CSS]:
    """The style sheets, parsed on first use in this process (their fonts loaded with them).

    Their rules come to the page as the reader's (user) style sheets: below every rule of the
    page's own, above the defaults, as a linked sheet's rules were for a page whose own style
    comes after its links."""
    fetcher = StaticFileFetcher(static_url, static_folder)
    sheets = []
    for name in names:
        key = (fetcher.static_url, static_folder, name, digest_of(static_folder, name))
        sheet = _parsed_sheets.get(key)
        if sheet is None:
            url = fetcher.static_url + name
            sheet = CSS(url=url, url_fetcher=fetcher, font_config=_fonts())
            _parsed_sheets[key] = sheet
        sheets.append(sheet)
    return sheets


@contextmanager
def _collections_waiting() -> Iterator[None]:
    """The cyclic garbage collector off while the block runs (renders take turns: no other
    layout turns it on meanwhile), and the young objects the block left collected after."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
            gc.collect(1)


def _layout(
    html: str,
    base_url: str,
    static_url: str,
    static_folder: str,
    stylesheets: tuple[str, ...] = (),
) -> Document:
    fetcher = StaticFileFetcher(static_url, static_folder, stylesheets)
    return HTML(string=html, base_url=base_url, url_fetcher=fetcher).render(
        font_config=_fonts(), stylesheets=_parsed(static_url, static_folder, stylesheets)
    )


def _anchor_y_pt(document: Document, name: str) -> float:
    anchor = document.pages[0].anchors.get(name)
    if anchor is None:
        raise LookupError(f"the sheet has no #{name} element to measure")
    return anchor[1] / CSS_PX_PER_PT


def spare_height_pt(document: Document, paper: Paper, missing_blocks: int = 0) -> float:
    """Blank space between the end of the sheet and the bottom margin (negative: overflow).

    `missing_blocks` deals were left out of `document`, each as tall as its second deal.
    """
    if len(document.pages) != 1:
        return -paper.content_height_pt
    end_y_pt = _anchor_y_pt(document, END_ANCHOR)
    if missing_blocks:
        first, second = (_anchor_y_pt(document, name) for name in BLOCK_ANCHORS)
        end_y_pt += missing_blocks * (second - first)
    return paper.height_pt - paper.margin_pt - end_y_pt


def fit_row_height(
    document: Document, paper: Paper, rows: int, row_pt: float, missing_blocks: int = 0
) -> float:
    """The row height that makes `rows` rows, laid out at `row_pt` (the least height), fill
    the page."""
    spare = spare_height_pt(document, paper, missing_blocks) - FIT_SAFETY_PT
    fitted = row_pt + spare / rows
    return round(max(row_pt, min(MAX_ROW_PT, fitted)), 2)


fitted_rows: RecentItems[float] = RecentItems(256)
"""Row heights already measured, by the shape of the sheet."""


@dataclass(frozen=True, slots=True)
class SheetSource:
    """A sheet to render: its HTML for a row height, and what measuring it needs."""

    html: Callable[[float], str]
    measure_html: Callable[[float], str]
    """The same page with its first two deals only and no numbers: quicker to lay out."""
    missing_blocks: int
    """How many deals the measuring page leaves out."""
    paper: Paper
    rows: int
    """How many rows grow when the sheet is stretched to its page (all deals)."""
    fit_key: Hashable
    """Everything the height of the page's fixed parts depends on."""
    least_row_pt: float = MIN_ROW_PT
    """The least height of a row: smaller type lets a sheet of many deals go lower."""
    stylesheets: tuple[str, ...] = ()
    """The static style sheets the page links, parsed once a process (``render_html``)."""


@dataclass(frozen=True, slots=True)
class RenderContext:
    """Where the sheet's HTML lives: its base URL and the static files it may load."""

    base_url: str
    static_url: str
    static_folder: str | Path
    admit: Callable[[], AbstractContextManager[object]] = nullcontext
    """Held around every layout: may refuse it by raising."""
    nice: int = 0
    """Above 0: lay pages out in a process of this lower priority; 0: in this process."""
    kept: KeptSheets | None = None
    """Where the machine's workers keep the sheets and row heights they made, if anywhere."""

    def run(self, work: Callable[..., R], *args: object) -> R:
        """``work(context's fields..., *args)``, here or in the low-priority process."""
        place = (self.base_url, self.static_url, str(self.static_folder))
        if self.nice <= 0:
            return work(*place, *args)
        renderer = _low_priority_renderer(self.nice)
        try:
            return renderer.call(work, *place, *args)
        except RendererGone:
            _forget_renderer(renderer)
            raise


def _low_priority_renderer(nice: int) -> RenderProcess:
    """This process's render process, started on first use (called holding the render lock)."""
    global _renderer
    if _renderer is None or _renderer.owner != os.getpid():
        _renderer = RenderProcess(nice)
        atexit.register(_renderer.stop)
    return _renderer


def _forget_renderer(renderer: RenderProcess) -> None:
    """A dead render process: the next render starts another."""
    global _renderer
    atexit.unregister(renderer.stop)
    if _renderer is renderer:
        _renderer = None


def _measured_row_pt(
    base_url: str,
    static_url: str,
    static_folder: str,
    html: str,
    paper: Paper,
    rows: int,
    missing_blocks: int,
    least_row_pt: float = MIN_ROW_PT,
    stylesheets: tuple[str, ...] = (),
) -> float:
    with _collections_waiting():
        measured = _layout(html, base_url, static_url, static_folder, stylesheets)
        return fit_row_height(measured, paper, rows, least_row_pt, missing_blocks)


def _pdf_bytes(
    base_url: str,
    static_url: str,
    static_folder: str,
    html: str,
    stylesheets: tuple[str, ...] = (),
) -> bytes:
    with _collections_waiting():
        return _layout(html, base_url, static_url, static_folder, stylesheets).write_pdf()


def _fitted(sheet: SheetSource, context: RenderContext) -> float:
    """Called holding the render lock: the shape's row height, measured on first use (unless
    another worker of the machine measured it while this one waited its turn)."""
    row_pt = fitted_rows.get(sheet.fit_key) or _kept_row_pt(sheet, context)
    if row_pt is None:
        html = sheet.measure_html(sheet.least_row_pt)
        row_pt = context.run(
            _measured_row_pt,
            html,
            sheet.paper,
            sheet.rows,
            sheet.missing_blocks,
            sheet.least_row_pt,
            sheet.stylesheets,
        )
        fitted_rows.put(sheet.fit_key, row_pt)
        if context.kept is not None:
            context.kept.keep_row_pt(html, row_pt)
    return row_pt


def _kept_row_pt(sheet: SheetSource, context: RenderContext) -> float | None:
    """The shape's row height as another worker of the machine measured it, if it did."""
    if context.kept is None:
        return None
    row_pt = context.kept.row_pt(sheet.measure_html(sheet.least_row_pt))
    if row_pt is not None:
        fitted_rows.put(sheet.fit_key, row_pt)
    return row_pt


def measure_row_height(sheet: SheetSource, context: RenderContext) -> float:
    """The row height that makes the sheet fill its page.

    The first sheet of a shape (`fit_key`: everything but the numbers and names written in it)
    is measured on a shortened copy (two deals, no numbers); later sheets of the shape reuse
    the height found, in this process and (kept by the shortened page's digest) in the
    machine's other workers.
    """
    row_pt = known_row_height(sheet, context)
    if row_pt is not None:
        return row_pt
    with context.admit(), _render_lock:
        return _fitted(sheet, context)


def known_row_height(sheet: SheetSource, context: RenderContext) -> float | None:
    """The row height of the sheet's shape if it was measured already, in this process or
    another worker of the machine; None when measuring it takes a layout."""
    return fitted_rows.get(sheet.fit_key) or _kept_row_pt(sheet, context)


def render_html(
    html: str,
    context: RenderContext,
    made_meanwhile: Callable[[], bytes | None] | None = None,
    stylesheets: tuple[str, ...] = (),
    keep: Callable[[bytes], None] | None = None,
) -> bytes:
    """The PDF of a page of HTML, reaching nothing but the app's static files.

    ``made_meanwhile``: the PDF of this very page if another render made it while this one
    waited for its turn; looked up once the turn has come, and sent instead of rendering.
    ``stylesheets``: static style sheets the page links (names as ``url_for("static")`` takes
    them), parsed once a process instead of at every layout; the page's own ``<style>`` must
    come after its links, as its rules keep the upper hand. ``keep``: given the PDF rendered
    before the turn ends, so that the render waiting next finds it made.
    """
    with context.admit(), _render_lock:
        made = made_meanwhile() if made_meanwhile is not None else None
        if made is not None:
            return made
        body = context.run(_pdf_bytes, html, stylesheets)
        if keep is not None:
            keep(body)
        return body
