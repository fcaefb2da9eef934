"""The rules handbook: a page per variant, a quick reference, search and a comparison."""
