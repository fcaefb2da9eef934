"""Games: start one, enter its deals, and follow the score (models, forms, views)."""
