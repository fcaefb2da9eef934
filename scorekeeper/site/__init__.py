"""Site-wide pieces that belong to no one area: the language switch."""
