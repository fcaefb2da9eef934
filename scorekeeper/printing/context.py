"""What a render may reach, taken from the request being answered."""

from __future__ import annotations

from pathlib import Path

from flask import current_app, url_for

from scorekeeper.limits import admitted_render
from scorekeeper.printing import pdf
from scorekeeper.printing.kept import FOLDER as KEPT_FOLDER
from scorekeeper.printing.kept import KeptSheets
from scorekeeper.public_url import public_address


def render_context() -> pdf.RenderContext:
    """This request's address for the sheet, and the only files rendering may read."""
    return pdf.RenderContext(
        base_url=public_address(current_app).url + "/",
        static_url=url_for("static", filename="", _external=True),
        static_folder=current_app.static_folder or "",
        admit=admitted_render,
        nice=current_app.config["SHEET_RENDER_NICE"],
        kept=KeptSheets(Path(current_app.instance_path) / KEPT_FOLDER),
    )
