"""A card table's history: its players across games, statistics, charts and exports."""
