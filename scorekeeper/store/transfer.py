"""Games to JSON and back: export one game or all, import a file of them.

An export holds what a game is (its frozen rules, sides, deals, versions and times), never its
tokens: a file passed around grants nothing, and an import gives each game new links. Exporting
what an import made gives back the same file, apart from ``exported_at``.

An import is all or nothing. Every value is checked for its type and range, every game's rules
must be a variant exactly as ``Variant.to_dict`` writes one, and every deal is read by the score
API's reader and checked by the rules core's validation: one refused value refuses the file,
naming the game, the deal and the field.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from scorekeeper.extensions import db
from scorekeeper.rules.entry import FLAG_FIELDS, LATER_SIDE_FIELDS, SIDE_FIELDS, SideEntry
from scorekeeper.rules.json_entry import EntryRejected, deal_from_json
from scorekeeper.rules.json_numbers import read_json_number
from scorekeeper.rules.messages import N_, Phrase, Problem
from scorekeeper.rules.names import clean_name, refused_characters
from scorekeeper.rules.scoring import score_deal
from scorekeeper.rules.terms import Plurals
from scorekeeper.rules.validation import validate_deal
from scorekeeper.rules.variant_checks import validate_variant
from scorekeeper.rules.variant_json import check_deal_lists
from scorekeeper.rules.variants import Variant, variant_from_dict
from scorekeeper.store.games import (
    MAX_VERSION,
    NAME_LENGTH,
    SIDE_NAME_LENGTH,
    Deal,
    DealSide,
    Game,
    GameSide,
)
from scorekeeper.store.links import issue_tokens
from scorekeeper.store.summary_writes import new_summary
from scorekeeper.store.tables import CardTable

FORMAT = "hand-and-foot-scorekeeper"
FORMAT_VERSION = 1
MAX_GAMES = 1000
MAX_INT = 1_000_000
"""Bound on every whole number in a file: far above any score, far below a database's limit."""
MAX_DEPTH = 12
MAX_IMPORTED_VERSION = MAX_VERSION // 2
"""Imported games and deals keep room for as many changes again before MAX_VERSION."""

FILE_KEYS = ("format", "format_version", "exported_at", "games")
GAME_KEYS = (
    "name",
    "variant",
    "rules",
    "players",
    "created_at",
    "updated_at",
    "version",
    "sides",
    "deals",
)
DEAL_KEYS = ("number", "version", "stock_ran_out", "created_at", "updated_at", "sides")


class ImportRefused(ValueError):
    """The file cannot be imported; ``problems`` says where and why (nothing was imported)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = list(problems)

    def messages(
        self, translate: Callable[[str], str] = lambda text: text, plurals: Plurals | None = None
    ) -> list[str]:
        return [problem.render(translate, plurals) for problem in self.problems]


def _time(value: datetime) -> str:
    return value.isoformat(timespec="microseconds")


def export_game(game: Game) -> dict[str, Any]:
    return {
        "name": game.name,
        "variant": game.variant_id,
        "rules": game.rules,
        "players": game.players,
        "created_at": _time(game.created_at),
        "updated_at": _time(game.updated_at),
        "version": game.version,
        "sides": [side.name for side in game.sides],
        "deals": [
            {
                "number": deal.number,
                "version": deal.version,
                "stock_ran_out": deal.stock_ran_out,
                "created_at": _time(deal.created_at),
                "updated_at": _time(deal.updated_at),
                "sides": [{name: getattr(row, name) for name in SIDE_FIELDS} for row in deal.sides],
            }
            for deal in game.deals
        ],
    }


def export_games(games: Iterable[Game], now: datetime) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": _time(now),
        "games": [export_game(game) for game in games],
    }


# --- reading a file ---------------------------------------------------------------------------


def parse_file(raw: bytes | str) -> object:
    """The JSON document of an uploaded file; ImportRefused if it is not JSON."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        return json.loads(text, parse_constant=_refuse_constant, parse_float=read_json_number)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise NOWHERE.refuse(N_("The file is not a JSON document.")) from None


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


@dataclass(frozen=True, slots=True)
class _Where:
    """Where a value sits in the file: "game 2, deal 3, side 1, meld_points".

    Each part is a translated phrase (game, deal, side) or a field name as the file spells it.
    """

    parts: tuple[Phrase | str, ...] = ()

    def at(self, part: Phrase | str) -> _Where:
        return _Where((*self.parts, part))

    def game(self, number: int) -> _Where:
        return self.at(Phrase(N_("game {number}"), {"number": number}))

    def deal(self, number: int) -> _Where:
        return self.at(Phrase(N_("deal {number}"), {"number": number}))

    def side(self, number: int) -> _Where:
        return self.at(Phrase(N_("side {number}"), {"number": number}))

    def problem(self, template: str, /, **params: object) -> Problem:
        return self.about(Phrase(template, params))

    def about(self, message: Phrase) -> Problem:
        """The message, placed: "game 2, deal 3: ..." (a message of the file itself as it is)."""
        if not self.parts:
            return Problem(None, None, message.template, message.params)
        names = {f"part{i}": part for i, part in enumerate(self.parts)}
        place = Phrase(", ".join(f"{{{name}}}" for name in names), names)
        field = ".".join(p for p in self.parts if isinstance(p, str)) or None
        return Problem(None, field, N_("{where}: {message}"), {"where": place, "message": message})

    def refuse(self, template: str, /, **params: object) -> ImportRefused:
        return ImportRefused([self.problem(template, **params)])


NOWHERE = _Where()


def _phrase(problem: Problem) -> Phrase:
    return Phrase(problem.template, problem.params)


def _depth(value: object, limit: int) -> bool:
    """Whether nesting stays within ``limit`` levels."""
    if limit < 0:
        return False
    if isinstance(value, Mapping):
        return all(_depth(v, limit - 1) for v in value.values())
    if isinstance(value, list):
        return all(_depth(v, limit - 1) for v in value)
    return True


def _object(value: object, keys: Sequence[str], where: _Where) -> Mapping[str, Any]:
    return _object_with(value, keys, (), where)


def _object_with(
    value: object, keys: Sequence[str], optional: Sequence[str], where: _Where
) -> Mapping[str, Any]:
    """`value` as an object of exactly `keys`, of which `optional` may be left out."""
    if not isinstance(value, Mapping):
        raise where.refuse(N_("must be a JSON object."))
    problems = [
        where.problem(N_("unknown field {name}."), name=repr(str(k)[:40]))
        for k in value
        if k not in keys
    ]
    problems += [
        where.problem(N_("{name} is missing."), name=k)
        for k in keys
        if k not in value and k not in optional
    ]
    if problems:
        raise ImportRefused(problems)
    return value


def _int(value: object, where: _Where, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise where.refuse(N_("must be a whole number."))
    if not low <= value <= high:
        raise where.refuse(
            N_("must be from {low} to {high}, not {value}."), low=low, high=high, value=value
        )
    return value


def _bool(value: object, where: _Where) -> bool:
    if not isinstance(value, bool):
        raise where.refuse(N_("must be true or false."))
    return value


def _text(value: object, where: _Where, longest: int, *, blank: bool) -> str:
    """A name as the forms take one (``rules.names``): what the app stored comes back."""
    if not isinstance(value, str):
        raise where.refuse(N_("must be text."))
    value = clean_name(value)
    if len(value) > longest:
        raise where.refuse(N_("must be at most {most} characters."), most=longest)
    if not blank and not value:
        raise where.refuse(N_("must not be empty."))
    if refused_characters(value):
        raise where.refuse(N_("must not hold control characters."))
    return value


def _when(value: object, where: _Where) -> datetime:
    if isinstance(value, str) and len(value) <= 40:
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            if moment.tzinfo is None:
                return moment
    raise where.refuse(N_("must be a date and time in UTC as exported (2026-11-23T12:00:00)."))


def _bounded_numbers(value: object, where: _Where) -> None:
    """Every number inside ``value`` whole and within ±MAX_INT (rules hold only small ones)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        _int(value, where, -MAX_INT, MAX_INT)
    elif isinstance(value, float):
        raise where.refuse(N_("must hold whole numbers only."))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _bounded_numbers(item, where.at(str(key)[:40]))
    elif isinstance(value, list):
        for item in value:
            _bounded_numbers(item, where)


def _rules(value: object, where: _Where) -> Variant:
    """A game's frozen rules: a variant exactly as ``Variant.to_dict`` writes it, and playable."""
    if not isinstance(value, Mapping):
        raise where.refuse(N_("must be a JSON object."))
    _bounded_numbers(value, where)
    deal_lists = list(check_deal_lists(value))
    if deal_lists:
        raise ImportRefused([where.about(_phrase(p)) for p in deal_lists])
    try:
        variant = variant_from_dict(value)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise where.refuse(N_("are not the rules of a variant.")) from None
    if variant.to_dict() != value:
        raise where.refuse(N_("are not the rules of a variant exactly as exported."))
    problems = validate_variant(variant)
    if problems:
        raise ImportRefused([where.about(_phrase(p)) for p in problems])
    return variant


@dataclass(frozen=True, slots=True)
class _DealRow:
    number: int
    version: int
    stock_ran_out: bool
    created_at: datetime
    updated_at: datetime
    sides: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class _GameRow:
    name: str
    variant: Variant
    players: int
    created_at: datetime
    updated_at: datetime
    version: int
    sides: tuple[str, ...]
    deals: tuple[_DealRow, ...]


def _read_deal(
    value: object,
    variant: Variant,
    sides: int,
    players: int,
    where: _Where,
    running_scores: list[int],
) -> _DealRow:
    """One deal of a game, checked by the rules core; `running_scores` (each side's total of
    the deals read before) is checked against and then moved on by the deal's scores."""
    data = _object(value, DEAL_KEYS, where)
    number = _int(data["number"], where.at("number"), 1, variant.deals)
    where = where.deal(number)
    version = _int(data["version"], where.at("version"), 1, MAX_IMPORTED_VERSION)
    stock_ran_out = _bool(data["stock_ran_out"], where.at("stock_ran_out"))
    created_at = _when(data["created_at"], where.at("created_at"))
    updated_at = _when(data["updated_at"], where.at("updated_at"))
    entries = data["sides"]
    if not isinstance(entries, list) or len(entries) != sides:
        raise where.at("sides").refuse(N_("must list {count} entries."), count=sides)
    for index, entry_values in enumerate(entries):
        side_where = where.side(index + 1)
        # Files written before a field existed leave it out: it takes its default.
        given = _object_with(entry_values, SIDE_FIELDS, LATER_SIDE_FIELDS, side_where)
        entry_values = {name: getattr(SideEntry(), name) for name in LATER_SIDE_FIELDS} | dict(
            given
        )
        entries[index] = entry_values
        for name in SIDE_FIELDS:
            if name in FLAG_FIELDS:
                _bool(entry_values[name], side_where.at(name))
            else:
                _int(entry_values[name], side_where.at(name), -MAX_INT, MAX_INT)
    request = {
        "variant": variant.id,
        "deal": number,
        "players": players,
        "stock_ran_out": stock_ran_out,
        "sides": entries,
    }
    if variant.first_meld_by_score:
        request["running_scores"] = list(running_scores)
    try:
        entry = deal_from_json(request, lambda _id: variant)
    except EntryRejected as refusal:
        raise ImportRefused([where.about(_phrase(p)) for p in refusal.problems]) from None
    report = validate_deal(entry)
    if not report.ok:
        raise ImportRefused([where.about(_phrase(p)) for p in report.errors])
    for side, score in enumerate(score_deal(entry)):
        running_scores[side] += score.total
    return _DealRow(
        number=number,
        version=version,
        stock_ran_out=stock_ran_out,
        created_at=created_at,
        updated_at=updated_at,
        sides=tuple({name: side[name] for name in SIDE_FIELDS} for side in entries),
    )


def _read_game(value: object, where: _Where) -> _GameRow:
    data = _object(value, GAME_KEYS, where)
    name = _text(data["name"], where.at("name"), NAME_LENGTH, blank=True)
    variant = _rules(data["rules"], where.at("rules"))
    if data["variant"] != variant.id:
        raise where.at("variant").refuse(N_("must be the id of its rules."))
    players = _int(data["players"], where.at("players"), 1, 100)
    raw_sides = data["sides"]
    if not isinstance(raw_sides, list):
        raise where.at("sides").refuse(N_("must be a list of names."))
    sides = tuple(
        _text(side, where.side(i + 1), SIDE_NAME_LENGTH, blank=False)
        for i, side in enumerate(raw_sides)
    )
    if len({side.casefold() for side in sides}) != len(sides):
        raise where.at("sides").refuse(N_("each side needs a different name."))
    if variant.table_for(len(sides), players) is None:
        raise where.refuse(
            N_("{variant} has no table of {sides} sides and {players} players."),
            variant=variant.name,
            sides=len(sides),
            players=players,
        )
    raw_deals = data["deals"]
    if not isinstance(raw_deals, list) or len(raw_deals) > variant.deals:
        raise where.at("deals").refuse(N_("must be a list of at most {most}."), most=variant.deals)
    running_scores = [0] * len(sides)
    deals = tuple(
        _read_deal(d, variant, len(sides), players, where, running_scores) for d in raw_deals
    )
    numbers = [deal.number for deal in deals]
    if len(set(numbers)) != len(numbers):
        raise where.at("deals").refuse(N_("each deal number may appear only once."))
    if numbers != sorted(numbers):
        raise where.at("deals").refuse(N_("must be in deal order."))
    return _GameRow(
        name=name,
        variant=variant,
        players=players,
        created_at=_when(data["created_at"], where.at("created_at")),
        updated_at=_when(data["updated_at"], where.at("updated_at")),
        version=_int(data["version"], where.at("version"), 1, MAX_IMPORTED_VERSION),
        sides=sides,
        deals=deals,
    )


def read_file(document: object) -> list[_GameRow]:
    """Every game of an export file, checked; ImportRefused on the first refused value."""
    if not _depth(document, MAX_DEPTH):
        raise NOWHERE.refuse(N_("The file is nested too deeply to be a games export."))
    data = _object(document, FILE_KEYS, NOWHERE)
    if data["format"] != FORMAT or data["format_version"] != FORMAT_VERSION:
        raise NOWHERE.refuse(
            N_("This is not a games export of this app (format {format}, version {version})."),
            format=FORMAT,
            version=FORMAT_VERSION,
        )
    _when(data["exported_at"], NOWHERE.at("exported_at"))
    games = data["games"]
    if not isinstance(games, list) or not games:
        raise NOWHERE.at("games").refuse(N_("must be a list of at least one game."))
    if len(games) > MAX_GAMES:
        raise NOWHERE.refuse(N_("A file may hold at most {most} games."), most=MAX_GAMES)
    return [_read_game(game, NOWHERE.game(i + 1)) for i, game in enumerate(games)]


@dataclass(frozen=True, slots=True)
class Imported:
    """A game made by an import, with the only copy of its edit token."""

    game: Game
    edit_token: str


def import_games(rows: Sequence[_GameRow], owner: CardTable | None = None) -> list[Imported]:
    """Add the checked games to the session (the caller commits), each with new tokens, kept
    with the card table ``owner`` when one is given."""
    made = []
    for row in rows:
        game = Game(
            card_table=owner,
            name=row.name,
            variant_id=row.variant.id,
            rules=row.variant.to_dict(),
            players=row.players,
            created_at=row.created_at,
            updated_at=row.updated_at,
            # Never below a deal's: a deal's next version is the game's (games.writes).
            version=max([row.version, *(deal.version for deal in row.deals)]),
            sides=[GameSide(position=i, name=name) for i, name in enumerate(row.sides)],
            deals=[
                Deal(
                    number=deal.number,
                    version=deal.version,
                    stock_ran_out=deal.stock_ran_out,
                    created_at=deal.created_at,
                    updated_at=deal.updated_at,
                    sides=[DealSide(position=i, **side) for i, side in enumerate(deal.sides)],
                )
                for deal in row.deals
            ],
        )
        game.stored_summary = new_summary(game)
        token = issue_tokens(game)
        db.session.add(game)
        made.append(Imported(game, token))
    return made
