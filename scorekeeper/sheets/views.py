"""Printable score sheets: blank for any variant and table, or filled from a game.

Each sheet has one HTML page (the browser preview, printable as it is) and its PDF, rendered
by WeasyPrint from that same HTML. Blank PDFs never change, so they are kept in memory; every
PDF made is also kept by the digest of its HTML, in memory and in the instance folder
(``kept``), where the machine's other workers find it. A finished game's sheet is made before
it is asked for (``ahead``).
"""

from __future__ import annotations

import base64
import hashlib
import logging
import time
from contextlib import nullcontext
from dataclasses import replace
from typing import Any, NoReturn, TypeVar

from flask import (
    Blueprint,
    Response,
    abort,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from flask_babel import format_date, get_locale
from flask_babel import gettext as _
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.limits import admitted_render
from scorekeeper.limits.slots import busy, render_slots
from scorekeeper.operations import metrics
from scorekeeper.printing import pdf
from scorekeeper.printing.cache import CachedPdf, PdfCache
from scorekeeper.printing.context import render_context
from scorekeeper.printing.geometry import MARGIN_MM, PAPERS, Paper, max_games_per_page
from scorekeeper.printing.kept import digest_of
from scorekeeper.printing.paper import default_paper
from scorekeeper.security import CONTENT_SECURITY_POLICY
from scorekeeper.sheets import ahead
from scorekeeper.sheets.layout import Sheet, blank_sheet, game_sheet
from scorekeeper.sheets.options import (
    MAX_NAME_LENGTH,
    BlankOptions,
    SheetOptionError,
    find_variant,
    or_list,
    paper_label,
    parse_blank,
    parse_paper,
)
from scorekeeper.signals import last_deal_saved
from scorekeeper.store import catalogue, kept_sheets
from scorekeeper.store.game_service import load_game
from scorekeeper.store.games import Game
from scorekeeper.store.scores import game_score
from scorekeeper.variant_texts import variant_text

bp = Blueprint("sheets", __name__)
log = logging.getLogger(__name__)

BLANK_MAX_AGE = 24 * 60 * 60
MADE_CACHE_SIZE = 32
STYLESHEETS = ("css/sheet.css",)
"""The static style sheets a sheet's page links: parsed once a process for its PDF."""


blank_pdfs = PdfCache()
"""Blank sheets by their options and language: a repeat request builds nothing at all."""

made_pdfs = PdfCache(MADE_CACHE_SIZE)
"""Every recent sheet by the digest of its HTML, filled ones included: same page, same PDF."""


def _language() -> str:
    return str(get_locale() or "en")


def _fail(error: SheetOptionError) -> NoReturn:
    abort(error.status, description=error.message)


# --- rendering -----------------------------------------------------------------------------


def _inline_css(sheet: Sheet, row_pt: float) -> str:
    """The style that changes from sheet to sheet: page size, column widths, row height."""
    return " ".join(
        (
            f"@page {{ size: {sheet.paper.css_size}; margin: {MARGIN_MM}mm; }}",
            f".sheet col.deal-col {{ width: {sheet.deal_column_pt:.2f}pt; }}",
            f".sheet col.label-col {{ width: {sheet.label_column_pt:.2f}pt; }}",
            f".sheet col.hint-col {{ width: {sheet.hint_column_pt:.2f}pt; }}",
            f".sheet col.side-col {{ width: {sheet.side_column_pt:.2f}pt; }}",
            f".sheet tbody td, .sheet tbody th.label {{ height: {row_pt:.2f}pt; }}",
        )
    )


def _html(sheet: Sheet, row_pt: float, *, anchors: bool = False) -> str:
    """The sheet's page; ``anchors``: with the ids of its deals, which measuring reads."""
    return render_template(
        "sheets/sheet.html", sheet=sheet, inline_css=_inline_css(sheet, row_pt), anchors=anchors
    )


def _source(sheet: Sheet) -> pdf.SheetSource:
    sample = sheet.measuring_sample(len(pdf.BLOCK_ANCHORS))
    return pdf.SheetSource(
        html=lambda row_pt: _html(sheet, row_pt),
        measure_html=lambda row_pt: _html(sample, row_pt, anchors=True),
        missing_blocks=len(sheet.deals) - len(sample.deals),
        paper=sheet.paper,
        rows=sheet.stretch_rows,
        fit_key=sheet.fit_key(_language()),
        least_row_pt=sheet.least_row_pt,
        stylesheets=STYLESHEETS,
    )


def _pdf(
    sheet: Sheet, context: pdf.RenderContext | None = None, game_id: int | None = None
) -> CachedPdf:
    """The sheet's PDF; one made from the very same HTML before is sent again.

    A game's sheet (``game_id``) is also kept in the database, where every server finds it
    before measuring anything: by the digest of its page before it is fitted to its paper."""
    context = context or render_context()
    shared = digest_of(_html(sheet, 0.0)) if game_id is not None else None
    if shared is not None:
        kept = made_pdfs.get(shared) or _shared_pdf(shared)
        if kept is not None:
            return kept
    source = _source(sheet)
    if pdf.known_row_height(source, context) is None:
        # Measured and rendered in one turn, admitted (and counted) once.
        admitted = replace(context, admit=nullcontext)
        with context.admit():
            return _measured_pdf(sheet, source, admitted, shared, game_id)
    return _measured_pdf(sheet, source, context, shared, game_id)


def _measured_pdf(
    sheet: Sheet,
    source: pdf.SheetSource,
    context: pdf.RenderContext,
    shared: str | None,
    game_id: int | None,
) -> CachedPdf:
    html = _html(sheet, pdf.measure_row_height(source, context))
    digest = digest_of(html)
    made = made_pdfs.get(digest)
    if made is None:
        made = _kept_pdf(digest, context) or _rendered_pdf(html, digest, context, shared)
        made_pdfs.put(digest, made)
    if shared is not None and game_id is not None:
        made = CachedPdf(made.body, shared)
        made_pdfs.put(shared, made)
        _share_pdf(shared, game_id, made.body)
    return made


def _shared_pdf(key: str) -> CachedPdf | None:
    """A game's sheet as a worker of any server on the database made it, if one did."""
    try:
        body = kept_sheets.kept_sheet(key)
    except SQLAlchemyError:
        log.warning("The kept sheet %s could not be read", key, exc_info=True)
        return None
    if body is None or not body.startswith(b"%PDF-"):
        return None
    made = CachedPdf(body, key)
    made_pdfs.put(key, made)
    return made


def _share_pdf(key: str, game_id: int, body: bytes) -> None:
    """Keep a game's sheet for every server; a cache: a failure only means a later render."""
    try:
        kept_sheets.keep_sheet(key, game_id, body)
    except SQLAlchemyError:
        log.warning("The sheet of game %s could not be kept", game_id, exc_info=True)


def _kept_pdf(digest: str, context: pdf.RenderContext) -> CachedPdf | None:
    """The page's PDF as a worker of the machine made it, if one did."""
    body = context.kept.pdf(digest) if context.kept is not None else None
    return CachedPdf(body, digest) if body is not None else None


def _rendered_pdf(
    html: str, digest: str, context: pdf.RenderContext, shared: str | None = None
) -> CachedPdf:
    """The page rendered, unless another render made it while this one waited its turn: a
    worker of this machine, or for a game's sheet (``shared``), of any server."""

    def made_meanwhile() -> bytes | None:
        kept = _kept_pdf(digest, context) or (_shared_pdf(shared) if shared else None)
        return kept.body if kept is not None else None

    def keep(body: bytes) -> None:
        metrics.count("renders")
        if context.kept is not None:
            context.kept.keep_pdf(digest, body)

    body = pdf.render_html(html, context, made_meanwhile, STYLESHEETS, keep)
    return CachedPdf(body, digest)


def _html_response(sheet: Sheet) -> Response:
    """The sheet as a page of its own: its inline style allowed by hash, framed by our pages."""
    css = _inline_css(sheet, pdf.measure_row_height(_source(sheet), render_context()))
    page = render_template("sheets/sheet.html", sheet=sheet, inline_css=css, anchors=False)
    digest = base64.b64encode(hashlib.sha256(css.encode()).digest()).decode()
    policy = CONTENT_SECURITY_POLICY.replace(
        "style-src 'self'", f"style-src 'self' 'sha256-{digest}'"
    ).replace("frame-ancestors 'none'", "frame-ancestors 'self'")
    response = Response(page, mimetype="text/html")
    response.headers["Content-Security-Policy"] = policy
    response.headers["X-Frame-Options"] = "SAMEORIGIN"
    response.headers["Cache-Control"] = "no-cache"
    return response


def _pdf_response(made: CachedPdf, filename: str, max_age: int | None) -> BaseResponse:
    """The PDF with its ETag: a browser that has it gets a 304. `max_age` None: always ask."""
    response = Response(made.body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    response.vary.update(("Cookie", "Accept-Language"))
    response.set_etag(made.etag)
    response.cache_control.private = True
    if max_age is None:
        response.cache_control.no_cache = True
    else:
        response.cache_control.max_age = max_age
    return response.make_conditional(request)


# --- blank sheets --------------------------------------------------------------------------


def _blank(options: BlankOptions) -> Sheet:
    return blank_sheet(
        options.variant, options.sides, options.paper, options.names, options.per_page
    )


def blank_pdf_bytes(options: BlankOptions) -> CachedPdf:
    """The blank sheet's PDF, from the cache when it was made before."""
    key = options.cache_key(_language())
    cached = blank_pdfs.get(key)
    if cached is None:
        cached = _pdf(_blank(options))
        blank_pdfs.put(key, cached)
    return cached


def _blank_options(variant_id: str) -> BlankOptions:
    try:
        return parse_blank(variant_id, request.args)
    except SheetOptionError as error:
        _fail(error)


@bp.get("/sheets/<variant_id>.pdf")
def blank_pdf(variant_id: str) -> BaseResponse:
    options = _blank_options(variant_id)
    cached = blank_pdf_bytes(options)
    filename = f"{options.variant.id}-{options.sides}-sides-{options.paper.id}.pdf"
    return _pdf_response(cached, filename, BLANK_MAX_AGE)


@bp.get("/sheets/<variant_id>.html")
def blank_html(variant_id: str) -> Response:
    options = _blank_options(variant_id)
    return _html_response(_blank(options))


def _print_page_options(args: MultiDict[str, str]) -> tuple[BlankOptions | None, list[str]]:
    """The print page's choice, made valid where it can be: a changed variant keeps working.

    Sides or games per page that the chosen variant or paper do not allow are moved to the
    nearest allowed value, with a note saying so. Names that cannot be used are an error.
    """
    notes: list[str] = []
    variant = find_variant(args.get("variant") or catalogue.variants()[0].id)
    fixed = MultiDict(args)
    try:
        sides = int(args.get("sides", variant.side_counts[0]))
    except ValueError:
        sides = variant.side_counts[0]
    if sides not in variant.side_counts:
        nearest = min(variant.side_counts, key=lambda n: (abs(n - sides), n))
        notes.append(
            _(
                "%(variant)s is not played by %(sides)s sides: showing %(nearest)s.",
                variant=variant_text(variant.name),
                sides=sides,
                nearest=nearest,
            )
        )
        sides = nearest
    fixed["sides"] = str(sides)
    paper = parse_paper(args)
    most = max_games_per_page(paper, sides)
    try:
        per_page = int(args.get("per_page", 1))
    except ValueError:
        per_page = 1
    if not 1 <= per_page <= most:
        per_page = max(1, min(per_page, most))
        notes.append(_("Games per page set to %(num)s, the most that fit.", num=per_page))
    fixed["per_page"] = str(per_page)
    fixed.setlist("names", args.getlist("names")[:sides])
    return parse_blank(variant.id, fixed), notes


DOWNLOADS = {"pdf": "blank_pdf", "html": "blank_html"}
"""The print page's download buttons (``download=``): the sheet of the choices on the form."""
GAME_DOWNLOADS = {"pdf": "game_pdf", "html": "game_html"}


def _download(endpoints: dict[str, str], **values: Any) -> BaseResponse | None:
    """A 303 to the sheet of the options just sent, when a download button sent them.

    ``values`` go to ``url_for`` as they come (it takes ``**values: Any``)."""
    endpoint = endpoints.get(request.args.get("download", ""))
    if endpoint is None:
        return None
    return redirect(url_for(f".{endpoint}", **values), code=303)


@bp.get("/sheets/")
def index() -> BaseResponse | tuple[str, int] | str:
    notes: list[str] = []
    error = ""
    try:
        options, notes = _print_page_options(request.args)
    except SheetOptionError as problem:
        if problem.status == 404:
            _fail(problem)
        error = problem.message
        options = None
    if options is not None:
        sent = _download(DOWNLOADS, variant_id=options.variant.id, **options.query())
        if sent is not None:
            return sent
    variants = catalogue.variants()
    chosen = (
        options.variant if options else find_variant(request.args.get("variant") or variants[0].id)
    )
    sides = options.sides if options else chosen.side_counts[0]
    per_page_choices = {paper.id: max_games_per_page(paper, sides) for paper in PAPERS.values()}
    page = render_template(
        "sheets/print.html",
        options=options,
        notes=notes,
        error=error,
        variants=variants,
        chosen=chosen,
        sides=sides,
        all_side_counts=sorted({n for v in variants for n in v.side_counts}),
        allowed_sides=or_list(chosen.side_counts),
        papers=[(paper.id, paper_label(paper)) for paper in PAPERS.values()],
        names=list(options.names) if options else [""] * sides,
        per_page_most=max(per_page_choices.values()),
        max_name_length=MAX_NAME_LENGTH,
    )
    return (page, 400) if error else page


# --- a game's sheet ------------------------------------------------------------------------


def _game(game_id: int) -> Game:
    game = load_game(game_id)
    if game is None:
        abort(404)
    return game


def _game_sheet(game: Game, paper: Paper) -> Sheet:
    return game_sheet(
        game_score(game),
        paper,
        name=game.name,
        date=str(format_date(game.created_at, "long")),
        players=game.players,
    )


def _game_paper() -> Paper:
    try:
        return parse_paper(request.args)
    except SheetOptionError as error:
        _fail(error)


def make_game_pdf_ahead(game: Game) -> None:
    """Make the game's sheet on the reader's paper before it is asked for: counted against no
    client's limit, waiting its turn for a render slot as long as a print would, and given up
    (a print makes it later) if its turn does not come by then."""
    slots = render_slots()
    context = replace(render_context(), admit=lambda: slots.held(slots.wait_seconds))
    _pdf(_game_sheet(game, default_paper()), context, game.id)


@last_deal_saved.connect
def _make_when_finished(_sender: object, game_id: int) -> None:
    ahead.after_save(game_id, lambda game: make_game_pdf_ahead(game))  # looked up when made


def game_pdf(game_id: int) -> BaseResponse:
    """The game's sheet; while it is being made ahead, that very sheet once made. The print
    waits, for that sheet and then for its turn to render if it must, no longer than
    ``SHEET_RENDER_WAIT_SECONDS`` in all (503 past that: it is still coming)."""
    paper = _game_paper()
    game = _game(game_id)
    deadline = time.monotonic() + render_slots().wait_seconds
    if not ahead.wait_for(game.id, render_slots().wait_seconds):
        metrics.count("render_refusals", "busy")
        raise busy()
    context = replace(render_context(), admit=lambda: admitted_render(until=deadline))
    made = _pdf(_game_sheet(game, paper), context, game_id=game.id)
    return _pdf_response(made, f"game-{game.id}-{paper.id}.pdf", max_age=None)


def game_html(game_id: int) -> Response:
    paper = _game_paper()
    return _html_response(_game_sheet(_game(game_id), paper))


def game_print(game_id: int) -> BaseResponse | str:
    paper = _game_paper()
    game = _game(game_id)
    sent = _download(GAME_DOWNLOADS, game_id=game.id, size=paper.id)
    if sent is not None:
        return sent
    sheet = _game_sheet(game, paper)
    return render_template(
        "sheets/game_print.html",
        game=game,
        sheet=sheet,
        paper=paper,
        papers=[(p.id, paper_label(p)) for p in PAPERS.values()],
    )


GAME_SHEET_VIEWS = (
    ("/sheet", game_print),
    ("/sheet.html", game_html),
    ("/sheet.pdf", game_pdf),
)
"""A game's sheet pages, each under the address of the game's scoreboard."""

SCOREBOARD_ENDPOINT = "games.scoreboard"
FALLBACK_GAME_RULE = "/games/<int:game_id>"


@bp.record_once
def _add_game_sheet_views(state: BlueprintSetupState) -> None:
    """Put a game's sheet under the game's own address, opened the way the game is opened.

    The rule is the scoreboard's (/games/<id>/sheet.pdf while games are addressed by id), and
    the games blueprint's URL processors run for these views too: whatever lets an address
    reach a game, or refuses it, does the same for its sheet, and ``url_for`` builds the
    address the same way. The games blueprint is registered first (see BLUEPRINTS).
    """
    app = state.app
    scoreboard = next(
        (rule for rule in app.url_map.iter_rules() if rule.endpoint == SCOREBOARD_ENDPOINT), None
    )
    base = scoreboard.rule if scoreboard is not None else FALLBACK_GAME_RULE
    for suffix, view in GAME_SHEET_VIEWS:
        state.add_url_rule(base + suffix, view.__name__, view, methods=["GET"])
    games = SCOREBOARD_ENDPOINT.split(".")[0]
    _share_functions(app.url_value_preprocessors, games, bp.name)
    _share_functions(app.url_default_functions, games, bp.name)


F = TypeVar("F")


def _share_functions(functions: dict[str | None, list[F]], source: str, target: str) -> None:
    """Add the functions registered for blueprint `source` to those of `target`, once each."""
    for function in functions.get(source, ()):
        if function not in functions.get(target, []):
            functions.setdefault(target, []).append(function)
