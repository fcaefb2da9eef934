"""The JSON API, /api/v1: a stable contract for other tools."""
