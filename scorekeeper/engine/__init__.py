"""The rules engine: cards, the deal, legal actions, scoring a finished deal, bots and games.

Pure Python: it reads every rule from a `Variant` (scorekeeper.rules.variants) and hands
finished deals to the scoring core as `DealEntry` values.

    state = new_deal(variant, deal, table, random.Random(seed))   # one DealState per deal
    legal_actions(state)            # the actions open to the current player
    refusal(state, action)          # why an action is illegal (a Reason), or None
    apply(state, action)            # carry it out, or raise IllegalAction(ValueError)
    to_deal_entry(state)            # the finished deal as the score API's DealEntry
    play_game("pagat", seed)        # a whole game between bots -> DemoGame (.to_dict())
    check_meld(variant, deal, "K", naturals=3, twos=1)   # the meld checker -> MeldCheck

Modules: cards (Face, Card, the shoe), actions, melds (TableMeld, check_meld), state
(DealState, dealing), legal (the rules of play), entries (a finished deal's
score-sheet entries, scored by the rules core), bots, game, demo, reasons (every
refusal message, in translated terms), conventions (facts of play the variant data leaves
implicit), fuzz (random play checked against the rules core's validator and scorer),
native (the compiled build of the hot modules, used while it matches their sources).
"""

from .native import usable_build

_native = usable_build()
if _native is not None:  # the compiled modules, when built from these sources (see `native`)
    __path__.insert(0, str(_native))

from .actions import (
    Action,
    AddRedThree,
    AskToGoOut,
    Discard,
    Draw,
    LayRedThrees,
    Meld,
    PickUpFoot,
    Play,
    TakePile,
)
from .bots import Bot, HeuristicBot, RandomBot
from .cards import Card, Face, deck, parse_faces, shoe, shuffled_shoe
from .entries import deal_totals, side_entries, to_deal_entry
from .errors import IllegalAction, Reason, TurnCapReached
from .game import DemoDeal, DemoGame, default_table, play_deal, play_game
from .legal import apply, going_out_refusal, is_legal, legal_actions, refusal
from .melds import MeldCheck, MeldKind, TableMeld, check_meld
from .state import DealEnd, DealState, Outcome, Phase, arrange, new_deal

__all__ = [
    "Action",
    "AddRedThree",
    "AskToGoOut",
    "Bot",
    "Card",
    "DealEnd",
    "DealState",
    "DemoDeal",
    "DemoGame",
    "Discard",
    "Draw",
    "Face",
    "HeuristicBot",
    "IllegalAction",
    "LayRedThrees",
    "Meld",
    "MeldCheck",
    "MeldKind",
    "Outcome",
    "Phase",
    "PickUpFoot",
    "Play",
    "RandomBot",
    "Reason",
    "TableMeld",
    "TakePile",
    "TurnCapReached",
    "apply",
    "arrange",
    "check_meld",
    "deal_totals",
    "deck",
    "default_table",
    "going_out_refusal",
    "is_legal",
    "legal_actions",
    "new_deal",
    "parse_faces",
    "play_deal",
    "play_game",
    "refusal",
    "shoe",
    "shuffled_shoe",
    "side_entries",
    "to_deal_entry",
]
