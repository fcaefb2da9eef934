"""House rules: a table's own variant, made from a built-in one, shared and imported."""
