"""The engine deals, plays and scores the HANDnFOOT pack: thirteen natural ranks, jesters
worth 25, villains and ladies played as black and red threes."""

import random

from engine_helpers import refused, table

from scorekeeper.engine import Discard, Phase, Play, TakePile, apply, new_deal
from scorekeeper.engine.cards import Face
from scorekeeper.engine.melds import TableMeld
from scorekeeper.engine.reasons import face_plural
from scorekeeper.rules.variants import PAGAT, RedThreeScore, Table, get_variant

ONE_PACK = Table(2, 4, 1)
HNF = PAGAT.with_changes(id="house-hnf", deck="handnfoot", tables=(ONE_PACK,))


def test_a_deal_of_one_pack_holds_its_262_cards_by_face():
    state = new_deal(HNF, 1, ONE_PACK, random.Random(3))

    counts = state.card_counts()

    assert len(state.natural_faces) == 13
    assert counts[Face.ACE] == 20
    assert [counts[face] for face in state.natural_faces[1:]] == [16] * 12
    assert (counts[Face.TWO], counts[Face.JOKER]) == (20, 10)
    assert (counts[Face.BLACK_THREE], counts[Face.RED_THREE]) == (10, 10)
    assert sum(counts) == 262


def test_a_standard_deal_has_no_cards_of_the_extra_ranks():
    state = new_deal(PAGAT, 1, Table(2, 4, 5), random.Random(3))

    counts = state.card_counts()

    assert len(state.natural_faces) == 11
    assert (counts[Face.RANK_12], counts[Face.RANK_13], sum(counts)) == (0, 0, 270)


def test_jesters_meld_at_25_and_numbered_cards_by_their_kind():
    state = new_deal(HNF, 1, ONE_PACK, random.Random(0))
    twelves, ones = state.natural_faces[1], state.natural_faces[12]

    assert TableMeld(twelves, 5, twos=2).points(state.melded_points) == 5 * 10 + 2 * 25
    assert TableMeld(ones, 6, jokers=1).points(state.melded_points) == 6 * 5 + 50
    assert state.held_points[Face.TWO] == 25


def test_refusals_name_the_pack_s_lowest_ranks_by_number():
    assert (face_plural(Face.RANK_12), face_plural(Face.RANK_13)) == ("2", "1")


def test_where_red_threes_are_discarded_a_lady_blocks_the_pile_like_a_villain() -> None:
    """The pack's ladies follow the table's red-three rule. Where red threes are never laid
    down, a lady may be discarded, and the next player cannot take the pile she tops."""
    kept = get_variant("simpson").with_changes(
        deck="handnfoot", red_three=RedThreeScore(down=None, held=-500), tables=(Table(2, 2, 1),)
    )
    state = table(kept, ["5 R3", "9 9"], phase=Phase.PLAY, pile="4 4 4 4 4 4 9")

    apply(state, Discard(Face.RED_THREE))

    assert state.pile[-1] is Face.RED_THREE
    assert refused(state, TakePile((Play(None, 0),))) == (
        "A red three on top of the discard pile cannot be taken."
    )
