"""PDFs made by WeasyPrint: the render process, the paper, and the PDFs kept in memory and on
disk. The score sheets (``sheets``) and the season summaries (``history``) print through it."""
