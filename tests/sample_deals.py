"""The deal the score API's contract shows: pagat, deal 1, two teams of two.

One side went out with every book going out needs (1210 melded, 15 left: 4595 points); the
other was caught with a red three still held (600 melded, 120 left: 1280 points).
"""

from scorekeeper.rules.entry import SIDE_FIELDS, SideEntry

PAGAT_OUT = SideEntry(
    meld_points=1210,
    clean_books=2,
    dirty_books=2,
    wild_books=1,
    red_threes_down=2,
    cards_left_points=15,
    went_out=True,
)
PAGAT_CAUGHT = SideEntry(
    meld_points=600,
    clean_books=1,
    dirty_books=1,
    red_threes_down=1,
    red_threes_held=1,
    cards_left_points=120,
)


def form_values(*sides: SideEntry, went_out: int = 0) -> dict[str, str]:
    """The deal form's fields for these sides as a phone posts them, empty counts left out."""
    values = {"went_out": str(went_out)}
    for index, side in enumerate(sides):
        for name in SIDE_FIELDS:
            value = getattr(side, name)
            if name != "went_out" and value:
                values[f"sides-{index}-{name}"] = str(value)
    return values
