"""Properties that hold for every deal, whatever the numbers."""

from hypothesis import assume, given
from hypothesis import strategies as st

from scorekeeper.rules.entry import DealEntry, SideEntry
from scorekeeper.rules.json_entry import answer
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variants import all_variants

variants = st.sampled_from(all_variants())


ANY_POINTS = st.integers(-100, 4000)
ANY_COUNT = st.integers(-2, 30)


def side_entries(points=ANY_POINTS, counts=ANY_COUNT):
    return st.builds(
        SideEntry,
        meld_points=points,
        clean_books=counts,
        dirty_books=counts,
        wild_books=counts,
        black_three_books=counts,
        red_threes_down=counts,
        red_threes_held=counts,
        cards_left_points=points,
        went_out=st.booleans(),
        exact_22=counts,
    )


deal_entries = st.builds(
    DealEntry,
    variant=variants,
    deal=st.integers(-1, 6),
    sides=st.lists(side_entries(), min_size=0, max_size=8).map(tuple),
    players=st.none() | st.integers(-1, 10),
    stock_ran_out=st.booleans(),
)


@st.composite
def sound_deals(draw):
    """Deals built the way a real one ends: one side out with its books, or the stock gone."""
    variant = draw(variants)
    table = draw(st.sampled_from(variant.tables))
    deal = draw(st.integers(1, 4))
    stock_ran_out = draw(st.booleans())
    out_side = None if stock_ran_out else draw(st.integers(0, table.sides - 1))
    needed = variant.going_out_for(deal)
    sides = []
    for index in range(table.sides):
        out = index == out_side
        clean = draw(st.integers(needed.clean if out else 0, 4))
        dirty = draw(st.integers(needed.dirty if out else 0, 4))
        wild = draw(st.integers(needed.wild if out else 0, 1)) if variant.wild_books else 0
        holders = table.players_per_side - (1 if out else 0)
        meld = variant.first_meld_for(deal) + 35 * clean + 50 * dirty + 140 * wild
        sides.append(
            SideEntry(
                meld_points=meld + 5 * draw(st.integers(0, 40)),
                clean_books=clean,
                dirty_books=dirty,
                wild_books=wild,
                red_threes_down=draw(st.integers(0, 1)),
                red_threes_held=0 if out and holders == 0 else draw(st.integers(0, 1)),
                cards_left_points=5 * holders * draw(st.integers(1, 12)),
                went_out=out,
                exact_22=draw(st.integers(0, table.players_per_side))
                if variant.exact_22_bonus is not None
                else 0,
            )
        )
    return DealEntry(variant, deal, tuple(sides), table.players, stock_ran_out)


@given(deal_entries)
def test_validation_never_raises(entry):
    report = validate_deal(entry)
    for problem in report.problems:
        assert problem.message
        assert problem.side is None or 0 <= problem.side < len(entry.sides)


@given(sound_deals())
def test_accepted_totals_are_multiples_of_five_and_sum_their_breakdown(entry):
    assume(validate_deal(entry).ok)
    for score in score_deal(entry):
        assert score.total % 5 == 0
        assert score.total == sum(score.breakdown.values())


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=6)
    ),
    max_leaves=20,
)


@given(json_values)
def test_any_json_gets_an_answer_not_an_exception(data):
    result = answer(data)
    assert result.accepted or result.body["errors"]


@given(
    st.fixed_dictionaries(
        {
            "variant": st.sampled_from([v.id for v in all_variants()]),
            "deal": st.integers(1, 4),
            "sides": st.lists(
                st.dictionaries(
                    st.sampled_from(
                        ["meld_points", "clean_books", "went_out", "cards_left_points", "bogus"]
                    ),
                    st.integers(-10, 500) | st.booleans() | st.text(max_size=3),
                ),
                min_size=1,
                max_size=4,
            ),
        }
    )
)
def test_almost_valid_requests_are_answered_with_named_fields(data):
    result = answer(data)
    if not result.accepted:
        assert all(error["message"] for error in result.body["errors"])
