"""The kept plays of one rank in one place: numbers only, each distinct segment made once."""

from __future__ import annotations

import gc

from scorekeeper.engine.play_shapes import SEGMENT_HEAD, SHAPE_SIZE, Context, Kept, segment_of

# Three naturals with none to two twos and no joker held or needed: three plays.
THREE_NATURALS = (3, 0, 2, 0, 0, 2, 3)

# A hand's context: no meld size limit, one wild card a two naturals, no least points.
CONTEXT: Context = (None, 2, 0, 20, 50, 2, 0, 0, 0, float("-inf"), 0, None, None, None, None)


def test_a_segment_holds_its_plays_then_each_shape() -> None:
    segment = segment_of(((THREE_NATURALS,), 3))

    assert segment[0] == 3
    assert segment[SEGMENT_HEAD : SEGMENT_HEAD + SHAPE_SIZE] == THREE_NATURALS


def test_segments_alike_are_one_object() -> None:
    first = segment_of(((THREE_NATURALS,), 3))
    again = segment_of(((tuple(list(THREE_NATURALS)),), 3))
    other = segment_of(((THREE_NATURALS, (4, 0, 0, 0, 0, 0, 1)), 4))

    assert again is first
    assert other is not first


def test_the_collector_stops_tracking_a_kept_segment() -> None:
    segment = segment_of((((5, 1, 1, 0, 0, 1, 1),), 1))
    gc.collect()

    assert not gc.is_tracked(segment)


def test_plays_on_a_meld_are_kept_by_rank_cards_held_and_the_meld_cards() -> None:
    kept = Kept(CONTEXT)
    segment = segment_of(((THREE_NATURALS,), 3))

    assert kept.on_meld(4, 3, 5, 1) is None
    kept.keep_on_meld(4, 3, 5, 1, segment)

    assert kept.on_meld(4, 3, 5, 1) is segment
    assert [kept.on_meld(*other) for other in [(4, 3, 5, 0), (4, 3, 4, 1), (4, 2, 5, 1)]] == [
        None,
        None,
        None,
    ]
    assert kept.on_meld(5, 3, 5, 1) is None
