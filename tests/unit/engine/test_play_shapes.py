"""The kept plays of one rank in one place: numbers only, each distinct segment made once."""

from __future__ import annotations

import gc

from scorekeeper.engine.play_shapes import SEGMENT_HEAD, SHAPE_SIZE, segment_of

# Three naturals with none to two twos and no joker held or needed: three plays.
THREE_NATURALS = (3, 0, 2, 0, 0, 2, 3)


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
