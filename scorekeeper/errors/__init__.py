"""Error pages for people, error bodies for /api/ clients."""
