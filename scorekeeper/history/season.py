"""The season summary as a PDF: the table's standings and charts, rendered by WeasyPrint.

The page is rendered like a score sheet (``printing.pdf``): it reaches the app's static files
only, counts against the client's sheet limit and holds a render slot while it is laid out. A
summary made from the very same HTML before is sent again without rendering.
"""

from __future__ import annotations

import hashlib
from datetime import date

from flask import render_template
from flask_babel import format_date

from scorekeeper.history.pages import StatsView, book_labels, line_labels
from scorekeeper.operations import metrics
from scorekeeper.printing import pdf
from scorekeeper.printing.cache import CachedPdf, PdfCache
from scorekeeper.printing.context import render_context
from scorekeeper.printing.paper import default_paper
from scorekeeper.store.tables import CardTable

made_summaries = PdfCache(16)


def season_html(table: CardTable, view: StatsView) -> str:
    return render_template(
        "history/season.html",
        table=table,
        view=view,
        lines=line_labels(),
        books=book_labels(),
        made_on=format_date(date.today(), "long"),
        paper=default_paper(),
    )


def season_pdf(table: CardTable, view: StatsView) -> bytes:
    html = season_html(table, view)
    digest = hashlib.sha256(html.encode()).hexdigest()[:32]
    made = made_summaries.get(digest)
    if made is None:
        made = CachedPdf(pdf.render_html(html, render_context()), digest)
        metrics.count("renders")
        made_summaries.put(digest, made)
    return made.body
