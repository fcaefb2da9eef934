"""How numbers, cards and score lines are said on pages, sheets and the rules pages alike."""
