"""The sections of a rules page on setting up, a turn and melds."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.engine.conventions import MATCHING_TO_TAKE, MIN_MELD
from scorekeeper.handbook.blocks import Block, BlockWriter
from scorekeeper.handbook.params import table_lines
from scorekeeper.rules.cards import CardKind
from scorekeeper.rules.decks import STANDARD
from scorekeeper.rules.messages import N_
from scorekeeper.rules.params import silent_source
from scorekeeper.rules.phrases import Register, pile_pickup_words
from scorekeeper.rules.score_lines import exact_cuts
from scorekeeper.rules.variants import PilePickup, RankMelds, WildDiscard
from scorekeeper.wording.words import buried_cards, deal_values, points, said


class PlaySections(BlockWriter):
    def special_deck(self) -> list[Block]:
        """What a deck other than the standard one holds, card by card."""
        deck = self.deck
        if deck is STANDARD:
            return []
        points = self.v.card_points
        roles = {
            CardKind.TWO: N_("{card}: {count} a pack, wild, worth {points}"),
            CardKind.JOKER: N_("{card}: {count} a pack, wild, worth {points}"),
            CardKind.BLACK_THREE: N_("{card}: {count} a pack, played as black threes"),
            CardKind.RED_THREE: N_("{card}: {count} a pack, played as red threes"),
        }
        natural = N_("{card}: {count} a pack, a rank to meld, worth {points}")
        items = [
            _(roles.get(card.kind, natural)).format(
                card=_(card.plural), count=card.per_deck, points=card.points_in(points)
            )
            for card in deck.cards
        ]
        blocks = [
            self.p(
                _(
                    "These rules play with %(deck)s instead of standard decks. One pack takes "
                    "the place of %(count)s standard decks: where a table lists decks, it "
                    "counts packs. A pack holds:",
                    deck=_(deck.name),
                    count=deck.stands_for,
                )
            ),
            self.ul(items),
        ]
        blocks += [Block("p", text=_(note), inferred=True) for note in deck.inferred]
        return blocks

    def setup(self) -> list[Block]:
        v = self.v
        packets = self.cut_packets() if v.cut_for_packets else self.dealt_packets()
        return [
            *self.players_and_decks(),
            *packets,
            self.p(_("Nobody may look at their foot before their hand is used up."), see=("foot",)),
            self.p(self.game_length_text(), "deals"),
        ]

    def players_and_decks(self) -> list[Block]:
        v = self.v
        blocks = [
            self.p(
                _(
                    "Who can play, and with how many decks of %(cards)s cards, jokers included:",
                    cards=self.deck.size,
                ),
            ),
            self.ul(table_lines(v.tables), "tables"),
            *self.special_deck(),
        ]
        if self.partnership:
            blocks.append(
                self.p(
                    _(
                        "Partners sit across from each other and play as one side: they share "
                        "their melds and their score."
                    ),
                )
            )
        return blocks

    def cut_packets(self) -> list[Block]:
        """Each player cuts their own hand and foot from the stock piles."""
        return [self.cutting_a_hand_and_foot(), *self.exact_cut_bonus(), self.uncut_stock()]

    def cutting_a_hand_and_foot(self) -> Block:
        v = self.v
        sizes = {
            "cut": deal_values(exact_cuts(v)),
            "hand": deal_values(v.hand_sizes),
            "foot": deal_values(v.foot_sizes),
        }
        if v.stock_piles == 1:
            text = _(
                "All the cards are shuffled together into a single stock pile. Each player "
                "lifts roughly %(cut)s cards from it, takes more or puts some back until they "
                "hold exactly %(cut)s, and counts them into two packets of %(hand)s and "
                "%(foot)s cards. The first packet is the player's hand; the second goes face "
                "down to the player on their right, whose foot it becomes.",
                **sizes,
            )
        else:
            text = _(
                "All the cards are shuffled together and spread into %(piles)s stock "
                "piles. Each player lifts roughly %(cut)s cards from one of them, takes "
                "more or puts some back until they hold exactly %(cut)s, and counts them "
                "into two packets of %(hand)s and %(foot)s cards. The first packet is "
                "the player's hand; the second goes face down to the player on their "
                "right, whose foot it becomes.",
                piles=v.stock_piles,
                **sizes,
            )
        return self.p(
            text,
            "cut_for_packets",
            "stock_piles",
            "hand_size",
            "foot_size",
        )

    def exact_cut_bonus(self) -> list[Block]:
        v = self.v
        if v.exact_22_bonus is None:
            return []
        return [
            self.p(
                _(
                    "A player who lifts exactly %(cut)s cards at the first attempt "
                    "earns a bonus of %(bonus)s points.",
                    cut=deal_values(exact_cuts(v)),
                    bonus=points(v.exact_22_bonus),
                ),
                "exact_22_bonus",
                see=("scoring",),
            )
        ]

    def uncut_stock(self) -> Block:
        if self.v.stock_piles == 1:
            text = _(
                "The cards nobody lifted stay where they are as the stock, and the "
                "discard pile starts beside it."
            )
        else:
            text = _(
                "The cards nobody lifted stay where they are as the stock, and the "
                "discard pile starts in the space between the piles."
            )
        return self.p(text, "stock_piles")

    def dealt_packets(self) -> list[Block]:
        v = self.v
        return [
            self.p(
                _(
                    "Each player is dealt two packets face down: a hand of %(hand)s cards, "
                    "which they pick up, and a foot of %(foot)s cards, which stays face "
                    "down until the hand has been used up.",
                    hand=deal_values(v.hand_sizes),
                    foot=deal_values(v.foot_sizes),
                ),
                "hand_size",
                "foot_size",
            ),
            self.p(self.stock_piles_text(), "stock_piles"),
        ]

    def stock_piles_text(self) -> str:
        v = self.v
        if v.stock_piles == 1:
            return self.single_stock()
        return _(
            "The cards left over form %(piles)s stock piles, face down in the middle "
            "of the table, with the discard pile between them.",
            piles=v.stock_piles,
        )

    def game_length_text(self) -> str:
        v = self.v
        if v.target_score is not None:
            return _(
                "A game goes on until a side reaches %(target)s points: it ends after the deal "
                "in which one does, or after deal %(deals)s at the latest, and the highest "
                "total then wins. Every deal up to deal %(deals)s has its first meld, books to "
                "go out and going-out bonus below: a deal added to the rules takes the last "
                "deal's until the table changes them.",
                target=points(v.target_score),
                deals=v.deals,
            )
        if silent_source(v):
            return ngettext(
                "A game is a single deal, and once it is scored the highest total wins.",
                "A game is %(num)s deals, and once the last deal is scored the highest total wins.",
                v.deals,
            )
        return ngettext(
            "A game is a single deal: once it is scored the highest total wins.",
            "A game is %(num)s deals. The deal passes one seat to the left after "
            "each one, and once the last deal is scored the highest total wins.",
            v.deals,
        )

    def single_stock(self) -> str:
        """How one stock is laid out and whether its top card starts the discard pile."""
        v = self.v
        if not v.first_discard_turned:
            return _(
                "The cards left over form the stock, face down in the middle of the "
                "table; the discard pile starts empty."
            )
        if not v.first_discard_buried:
            return _(
                "The cards left over form the stock, face down in the middle of the "
                "table. Its top card is turned face up beside it to begin the discard pile."
            )
        return _(
            "The cards left over form the stock, face down in the middle of the "
            "table. Its top card is turned face up beside it to begin the discard "
            "pile; if that card is %(cards)s, it is buried in the stock and the next "
            "one is turned.",
            cards=buried_cards(v.first_discard_buried),
        )

    def turn(self) -> list[Block]:
        return [
            self.turn_start(),
            self.turn_steps(),
            self.red_three_drawn(),
            self.p(self.pile_pickup_text(), "pile_pickup"),
            *self.taking_the_pile(),
            self.first_meld_from_the_pile(),
        ]

    def draw_text(self) -> str:
        v = self.v
        counts = [v.draw_count_for(deal) for deal in range(1, v.deals + 1)]
        text = self.draw_count_text(counts)
        if text is not None:
            return text
        if v.stock_piles == 1:
            return _(
                "Draw %(count)s cards from the stock, or take the discard pile instead "
                "(see below).",
                count=counts[0],
            )
        return _(
            "Draw %(count)s cards from the stock piles, from the same pile or from "
            "different ones, or take the discard pile instead (see below).",
            count=counts[0],
        )

    def draw_count_text(self, counts: list[int]) -> str | None:
        """The draw where it changes from deal to deal, else None."""
        if all(count == counts[0] for count in counts):
            return None
        if self.v.stock_piles == 1:
            return _(
                "Draw cards from the stock, as many as the deal says (%(counts)s, deal 1 "
                "first), or take the discard pile instead (see below).",
                counts=deal_values(counts, str),
            )
        return _(
            "Draw cards from the stock piles, as many as the deal says (%(counts)s, deal 1 "
            "first), from the same pile or from different ones, or take the discard pile "
            "instead (see below).",
            counts=deal_values(counts, str),
        )

    def pile_pickup_text(self) -> str:
        v = self.v
        takes = [v.pile_take_for(deal) for deal in range(1, v.deals + 1)]
        if v.pile_take_by_deal and v.pile_pickup is not PilePickup.WHOLE_PILE:
            if v.pile_pickup is PilePickup.TOP_SEVEN_FROM_FULL:
                return _(
                    "Picking up the discard pile: in each deal you take exactly its top "
                    "%(counts)s cards (deal 1 first), and only while it holds at least that "
                    "many.",
                    counts=deal_values(takes, str),
                )
            return _(
                "Picking up the discard pile: in each deal you take its top %(counts)s cards "
                "(deal 1 first), or the whole pile if it holds fewer.",
                counts=deal_values(takes, str),
            )
        return said(pile_pickup_words(v.pile_pickup, Register.FULL))

    def turn_start(self) -> Block:
        v = self.v
        if silent_source(v):
            # Each player cuts their own cards: there is no dealer, and the source names no
            # first player.
            return Block(
                "p",
                text=_(
                    "The table agrees who plays first; play then goes clockwise. Before their "
                    "first turn, each player lays any red threes from their hand face up and "
                    "draws the same number of replacement cards from the stock."
                )
                if v.red_threes_laid_down
                else _("The table agrees who plays first; play then goes clockwise."),
                inferred=True,
            )
        return self.p(
            _(
                "The player on the dealer's left starts, and play goes clockwise. Before "
                "their first turn, each player lays any red threes from their hand face up "
                "and draws the same number of replacement cards from the stock."
            )
            if v.red_threes_laid_down
            else _("The player on the dealer's left starts, and play goes clockwise.")
        )

    def turn_steps(self) -> Block:
        return Block(
            "ol",
            items=(
                self.draw_text(),
                self.sided(
                    _(
                        "Meld, if you can and wish to: start new melds or add cards to your "
                        "side's melds."
                    ),
                    _(
                        "Meld, if you can and wish to: start new melds or add cards to the "
                        "ones you already have."
                    ),
                ),
                _("Finish by discarding one card face up on the discard pile."),
            ),
            inferred=self.inferred(("stock_piles",)),
        )

    def red_three_drawn(self) -> Block:
        v = self.v
        return self.p(
            _(
                "A red three drawn from the stock is laid face up straight away, and you "
                "draw another card to replace it."
            )
            if v.red_threes_laid_down
            else _(
                "A red three drawn from the stock stays in your hand: the only way to be "
                "rid of it is to discard it."
            ),
            see=("red-threes",),
        )

    def taking_the_pile(self) -> list[Block]:
        """How the pile is taken, and what stops it from being taken."""
        return [*self.meld_to_take_the_pile(), *self.three_on_the_pile(), *self.pile_stoppers()]

    def meld_to_take_the_pile(self) -> list[Block]:
        """The top card melded at once with natural cards of its rank, and a rank's one
        unfinished meld where the variant allows no more."""
        blocks = [
            self.p(
                _(
                    "To take it, you must hold %(count)s natural cards of the same rank as the "
                    "top card and meld them with it straight away, adding more cards from your "
                    "hand if you like. Only then do the rest of the taken cards join your hand.",
                    count=MATCHING_TO_TAKE,
                )
            ),
        ]
        if self.v.rank_melds is RankMelds.ONE_UNFINISHED:
            blocks.append(
                self.p(
                    _(
                        "If your side already has an unfinished meld of the top card's rank, "
                        "you may take the pile only when the top card and cards from your "
                        "hand are enough both to finish that meld as a book and to start a "
                        "new meld of at least %(min)s cards of the rank.",
                        min=MIN_MELD,
                    ),
                    "rank_melds",
                    see=("melds",),
                )
            )
        return blocks

    def three_on_the_pile(self) -> list[Block]:
        """A three on top stops the pile; a red three taken with it is laid down."""
        v = self.v
        blocks = []
        if not v.black_three_books and v.wild_discard is not WildDiscard.NEVER_TAKEN:
            blocks.append(self.p(_("The pile can never be taken while a three lies on top.")))
        if v.red_threes_laid_down:
            blocks.append(
                self.p(
                    _(
                        "A red three among the cards taken from the pile is laid face up and "
                        "replaced from the stock, like any other."
                    ),
                    see=("red-threes",),
                )
            )
        return blocks

    def pile_stoppers(self) -> list[Block]:
        """A black three or a wild card discarded on the pile, and a pair of black threes."""
        v = self.v
        blocks = [
            self.p(
                _("A black three discarded on the pile stops the next player from taking it."),
                see=("threes",),
            ),
            self.p(self.wild_discard_text(), "wild_discard", see=("wilds",)),
        ]
        if v.black_three_books and not v.black_three_pair_takes_pile:
            blocks.append(
                self.p(
                    _("A pair of black threes can never be used to take the discard pile."),
                    "black_three_pair_takes_pile",
                )
            )
        return blocks

    def first_meld_from_the_pile(self) -> Block:
        return self.p(
            self.sided(
                _(
                    "If your side has not melded yet in this deal, the meld you make with "
                    "the top card must reach the first-meld minimum, and only the top card "
                    "and cards from your hand count toward it, never the rest of the pile."
                ),
                _(
                    "If you have not melded yet in this deal, the meld you make with the "
                    "top card must reach the first-meld minimum, and only the top card and "
                    "cards from your hand count toward it, never the rest of the pile."
                ),
            ),
            see=("first-meld",),
        )

    def melds(self) -> list[Block]:
        blocks = [
            self.p(
                _(
                    "A meld is a set of at least %(min)s cards of the same rank, laid face up on "
                    "the table. Any rank from %(high)s down to %(low)s can be melded; suits do "
                    "not matter.",
                    min=MIN_MELD,
                    high=self.rank_words(0),
                    low=self.rank_words(-1),
                )
            ),
            self.meld_size(),
        ]
        if self.partnership:
            blocks.append(
                self.p(
                    _(
                        "In a partnership, melds belong to the side: either partner may add to "
                        "any of them."
                    ),
                )
            )
        blocks += [
            self.p(self.rank_melds_text(), "rank_melds"),
            self.p(self.wild_melds_text(), "book_bonus", see=("wilds",)),
            self.threes_in_melds(),
        ]
        return blocks

    def meld_size(self) -> Block:
        v = self.v
        if v.max_meld_size is not None:
            return self.p(
                _(
                    "A meld can grow to %(max)s cards and no further.",
                    max=v.max_meld_size,
                ),
                "max_meld_size",
                see=("books",),
            )
        if v.max_dirty_meld_size is not None:
            return self.p(
                _(
                    "A clean meld has no upper size: cards of its rank may still be added after "
                    "it has become a book. A meld with a wild card stops at %(max)s cards: a "
                    "dirty book is closed.",
                    max=v.max_dirty_meld_size,
                ),
                "max_meld_size",
                "max_dirty_meld_size",
                see=("books",),
            )
        return self.p(
            _(
                "A meld has no upper size: cards of its rank may still be added after "
                "it has become a book."
            ),
            "max_meld_size",
            see=("books",),
        )

    def rank_melds_text(self) -> str:
        v = self.v
        rank_texts = {
            RankMelds.ONE_UNFINISHED: _(
                "A side may not have two unfinished melds of the same rank. Once a meld has "
                "become a book, a new meld of that rank may be started."
            ),
            RankMelds.ONE: self.sided(
                _("A side may never have two melds of the same rank, finished or not."),
                _("A player may never have two melds of the same rank, finished or not."),
            ),
        }
        return rank_texts.get(v.rank_melds, str(v.rank_melds.value))

    def threes_in_melds(self) -> Block:
        if self.v.black_three_books:
            return self.p(
                _(
                    "Threes are never part of an ordinary meld, but black threes may be "
                    "melded together as a meld of their own, never with wild cards."
                ),
                "book_bonus",
                see=("threes",),
            )
        return self.p(_("Threes are never part of a meld."), see=("threes",))
