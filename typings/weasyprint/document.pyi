class Page:
    anchors: dict[str, tuple[float, float]]
    """Each anchor's name -> its (x, y) point in CSS pixels from the page's top-left corner."""

class Document:
    pages: list[Page]
    def write_pdf(self, target: None = None, zoom: float = 1, **options: object) -> bytes: ...
