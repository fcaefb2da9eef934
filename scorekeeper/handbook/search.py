"""Search across every variant's rules, in any language of the interface.

The index is built from the very section texts the rules pages show, rendered in the language
asked for, plus each section's keywords (other words people use for its subject). Words are
compared with case and accents folded, and loosely enough that "threes" finds "three" and
"rossi" finds "rosso". Japanese (and any text without spaces) is cut into overlapping pairs of
characters, so that any part of a phrase can match. Sections are ranked by how many of the
words they hold, the rarer words weighing more, with a bonus when the whole query appears.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from flask_babel import force_locale
from markupsafe import Markup, escape

from scorekeeper.handbook.blocks import Section
from scorekeeper.handbook.content import handbook
from scorekeeper.rules.variants import Variant
from scorekeeper.variant_texts import variant_text

MAX_QUERY = 200
MAX_RESULTS = 12
SNIPPET_CHARS = 220
TITLE_WEIGHT = 3.0
KEYWORD_WEIGHT = 2.0
PHRASE_WEIGHT = 2.0
RELATIVE_FLOOR = 0.25
"""Results scoring under this share of the best one are left out."""
SNIPPET_TIE = 0.01
"""Between pieces holding the same query words, the one holding them more often wins."""
DERIVED_SECTIONS = frozenset({"differences"})
DERIVED_WEIGHT = 0.5
"""Sections that restate other sections' values weigh less than the rules themselves."""
ANSWER_WEIGHT = 1.5
"""A sentence that holds every word of the query is an answer: its section comes first."""
NUMBER_WEIGHT = 0.5
"""For "how much" and "how many" questions, a sentence that gives a number is the answer."""
NUMBER_TIE = 0.05
"""Between sentences holding the same words, the one that gives a number (a variant's own
value) is shown: "red three" answers with each variant's score, not a sentence they share."""

# Little words of the interface's languages that say nothing about a rule. A query made of
# nothing else still searches for them.
_STOPWORDS_BY_LANGUAGE = {
    "en": "a an and are as at be by can could did do does for from how i if in is it its me my "
    "of on or our s so that the their them then there they this to was we what when where "
    "which who will with you your",
    "fr": "au aux c ce ces d dans de des du elle en est et il j je l la le les ma mes mon n ne "
    "on ou par pas pour qu quand que qui sa se ses si son sur ta te tu un une y",
    "it": "che chi con da dal dalla degli dei del della delle di e gli i il la le lo mi mia mio "
    "nel nella o per quando se sono su un una uno",
    "de": "am an auf das dem den der des die ein eine einem einen einer es für ich im ist mein "
    "meine meinem meiner mit ob oder sich sind und von wann wenn wie zu",
}
STOPWORDS = frozenset(word for words in _STOPWORDS_BY_LANGUAGE.values() for word in words.split())


_WORD = re.compile(r"[^\W_]+")


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return (
        0x3040 <= code <= 0x30FF  # hiragana, katakana
        or 0x3400 <= code <= 0x4DBF  # CJK extension A
        or 0x4E00 <= code <= 0x9FFF  # CJK unified ideographs
        or 0xF900 <= code <= 0xFAFF  # CJK compatibility ideographs
        or 0xFF66 <= code <= 0xFF9F  # half-width katakana
        or 0xAC00 <= code <= 0xD7AF  # hangul syllables
    )


def fold(text: str) -> str:
    """Case and Latin accents folded away (é → e, ß → ss); kana and kanji kept whole."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept: list[str] = []
    base = ""
    for char in decomposed:
        if unicodedata.combining(char) and base and ord(base) < 0x0250:
            continue  # an accent on a Latin letter
        kept.append(char)
        if not unicodedata.combining(char):
            base = char
    return unicodedata.normalize("NFKC", "".join(kept)).casefold()


# Words that ask for a value or a count ("how much is a red three worth", "combien de
# canastas"): they say what kind of answer is wanted, not what it is about. They are not
# searched for; they make a sentence that gives a number the better answer.
_VALUE_WORDS_BY_LANGUAGE = {
    "en": "many much worth cost costs",
    "fr": "combien vaut valent coute coutent",
    "it": "quanto quanti quante vale valgono costa",
    "de": "viel viele wieviel wieviele wert kostet",
    "ja": "いくら 何点 何枚 いくつ",
}
VALUE_WORDS = frozenset(
    fold(word) for words in _VALUE_WORDS_BY_LANGUAGE.values() for word in words.split()
)
_NUMBER = re.compile(r"\d")

# Other names players give a thing the pages name one way: Saskatchewan's players call a book
# a canasta, and a query in those words finds the page's own.
SYNONYMS = {
    "canasta": "book",
    "canastas": "books",
}


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    start: int
    end: int
    cjk: bool


def tokens(text: str, for_query: bool = False) -> Iterator[Token]:
    """Words of alphabetic text; single characters and pairs of CJK text.

    A query's CJK run of two or more characters is cut into pairs only: a document's is cut
    into pairs and single characters, so a one-character query still finds it.
    """
    for match in _WORD.finditer(text):
        word, offset = match.group(), match.start()
        start = 0
        while start < len(word):
            cjk = _is_cjk(word[start])
            end = start
            while end < len(word) and _is_cjk(word[end]) == cjk:
                end += 1
            run = word[start:end]
            if not cjk:
                yield Token(fold(run), offset + start, offset + end, False)
            else:
                chars = [fold(c) for c in run]
                if len(run) == 1 or not for_query:
                    for i, char in enumerate(chars):
                        yield Token(char, offset + start + i, offset + start + i + 1, True)
                for i in range(len(run) - 1):
                    yield Token(
                        chars[i] + chars[i + 1], offset + start + i, offset + start + i + 2, True
                    )
            start = end


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def word_matches(query: str, word: str) -> bool:
    """The same word, or the same stem with a different ending (three/threes, rosso/rossi)."""
    if query == word:
        return True
    shared = _common_prefix(query, word)
    return (
        shared >= 4
        and shared >= min(len(query), len(word)) - 2
        and shared >= max(len(query), len(word)) - 3
    )


@dataclass(frozen=True, slots=True)
class Doc:
    order: int
    """Where the section comes in the list of all: variants in their order, then sections."""
    variant_id: str
    variant_name: str
    section: str
    title: str
    pieces: tuple[str, ...]
    piece_tokens: tuple[tuple[Token, ...], ...]
    piece_counts: tuple[Counter[str], ...]
    """How often each word comes in each piece."""
    piece_numbers: tuple[bool, ...]
    """Whether each piece gives a number."""
    body: Counter[str]
    title_words: frozenset[str]
    keyword_words: frozenset[str]
    folded: str
    """Title, text and keywords folded, spaces removed: for whole-phrase matches."""
    words: frozenset[str]
    """Every word of the body, title and keywords."""


@dataclass(frozen=True, slots=True)
class Index:
    language: str
    docs: tuple[Doc, ...]
    vocabulary: frozenset[str]
    cjk: frozenset[str]
    latin: frozenset[str]
    """The vocabulary's words that are not CJK: matched by stem, not only whole."""


def _squash(text: str) -> str:
    return "".join(fold(text).split())


def build_index(language: str, variants: tuple[Variant, ...]) -> Index:
    """Every section of every variant, rendered in `language`. Needs an app context."""
    docs: list[Doc] = []
    with force_locale(language):
        for variant in variants:
            name = variant_text(variant.name)
            for section in handbook(variant).sections:
                docs.append(_doc(len(docs), variant, name, section))
    vocabulary: set[str] = set()
    cjk: set[str] = set()
    for doc in docs:
        vocabulary |= doc.words
    for word in vocabulary:
        if any(_is_cjk(c) for c in word):
            cjk.add(word)
    return Index(
        language, tuple(docs), frozenset(vocabulary), frozenset(cjk), frozenset(vocabulary - cjk)
    )


def _doc(order: int, variant: Variant, name: str, section: Section) -> Doc:
    """One section of a variant's rules page, its words counted for the search."""
    pieces = tuple(section.texts())
    piece_tokens = tuple(tuple(tokens(piece)) for piece in pieces)
    body = Counter(t.text for found in piece_tokens for t in found)
    title_words = frozenset(t.text for t in tokens(section.title))
    keyword_words = frozenset(t.text for t in tokens(section.keywords))
    return Doc(
        order=order,
        variant_id=variant.id,
        variant_name=name,
        section=section.id,
        title=section.title,
        pieces=pieces,
        piece_tokens=piece_tokens,
        piece_counts=tuple(Counter(t.text for t in found) for found in piece_tokens),
        piece_numbers=tuple(bool(_NUMBER.search(piece)) for piece in pieces),
        body=body,
        title_words=title_words,
        keyword_words=keyword_words,
        folded=_squash(" ".join((section.title, *pieces, section.keywords))),
        words=frozenset(body) | title_words | keyword_words,
    )


@lru_cache(maxsize=16)
def cached_index(language: str, variants: tuple[Variant, ...]) -> Index:
    """One index per language and set of variants (variants are frozen, so hashable)."""
    return build_index(language, variants)


@dataclass(frozen=True, slots=True)
class Result:
    """A section that answers the query, in every variant where it reads the same."""

    section: str
    title: str
    snippet: Markup
    score: float
    language: str
    variants: tuple[tuple[str, str], ...]
    """(id, name) of each variant whose section this is, best match first."""

    @property
    def variant_id(self) -> str:
        return self.variants[0][0]


def _expand(index: Index, word: str, cjk: bool) -> frozenset[str]:
    """The vocabulary words a query word stands for."""
    if cjk:
        return frozenset({word}) if word in index.vocabulary else frozenset()
    forms = (word, SYNONYMS.get(word, word)) if index.language == "en" else (word,)
    return _matching_words(index.latin, forms)


@lru_cache(maxsize=4096)
def _matching_words(vocabulary: frozenset[str], forms: tuple[str, ...]) -> frozenset[str]:
    """The words of the vocabulary any of `forms` stands for (kept: queries repeat)."""
    return frozenset(w for w in vocabulary if any(word_matches(f, w) for f in forms))


def _answer_value(
    doc: Doc, terms: dict[str, frozenset[str]], weights: dict[str, float], wants_number: bool
) -> float:
    """The weight of the query words held by the doc's best sentence, when it holds them all.

    For a value or count question, a sentence that also gives a number weighs more.
    """
    best = 0.0
    for words, has_number in zip(doc.piece_counts, doc.piece_numbers, strict=True):
        if not all(not forms.isdisjoint(words) for forms in terms.values() if forms):
            continue
        value = sum(weights[term] for term, forms in terms.items() if forms)
        if wants_number and has_number:
            value *= 1 + NUMBER_WEIGHT
        best = max(best, value)
    return best


def _query_terms(index: Index, query: str) -> tuple[dict[str, frozenset[str]], bool]:
    """The words to look for, each with the vocabulary words it stands for; and whether the
    query asks for a value or a count."""
    query_tokens = list(tokens(query, for_query=True))
    asking = [t for t in query_tokens if t.text in VALUE_WORDS]
    telling = [
        t for t in query_tokens if t.cjk or (t.text not in STOPWORDS and t.text not in VALUE_WORDS)
    ]
    if not telling:
        telling = [t for t in query_tokens if t.text not in VALUE_WORDS] or query_tokens
    terms: dict[str, frozenset[str]] = {}
    for token in telling:
        if token.text in terms or (token.cjk and token.text in VALUE_WORDS):
            continue
        terms[token.text] = _expand(index, token.text, token.cjk)
    return terms, bool(asking)


def search(
    index: Index, query: str, variant_id: str | None = None, first: str | None = None
) -> list[Result]:
    """The sections that answer `query`, best first (within one variant when one is given).

    Sections that read the same in several variants come back as one result naming them all;
    with `first` (the variant of the game being played), that variant's answers come first.
    """
    query = query.strip()[:MAX_QUERY]
    terms, wants_number = _query_terms(index, query)
    if not terms:
        return []
    docs = [d for d in index.docs if variant_id is None or d.variant_id == variant_id]
    weights = _term_weights(index, terms)
    scored = []
    for doc in docs:
        score = _score(doc, terms, weights, wants_number)
        if score is not None:
            scored.append((score, doc))
    if not scored:
        return []
    scored.sort(key=lambda pair: (-pair[0], pair[1].order))
    best = scored[0][0]
    kept = [(score, doc) for score, doc in scored if score >= best * RELATIVE_FLOOR]
    if first is not None:
        kept.sort(key=lambda pair: pair[1].variant_id != first)
    return _grouped(kept, terms, weights, wants_number, index.language)


def _term_weights(index: Index, terms: dict[str, frozenset[str]]) -> dict[str, float]:
    """Each term's weight: the rarer among all sections, the more it tells."""
    total = len(index.docs)
    weights: dict[str, float] = {}
    for term, words in terms.items():
        holding = sum(1 for doc in index.docs if words & doc.words)
        weights[term] = math.log(1 + total / holding) if holding else 0.0
    return weights


def _score(
    doc: Doc, terms: dict[str, frozenset[str]], weights: dict[str, float], wants_number: bool
) -> float | None:
    """How well a section answers the terms; None when it holds none of them."""
    score = 0.0
    found = 0
    for term, words in terms.items():
        if not words:
            continue
        count = sum(doc.body[w] for w in words)
        in_title = bool(words & doc.title_words)
        in_keywords = bool(words & doc.keyword_words)
        if not (count or in_title or in_keywords):
            continue
        found += 1
        score += weights[term] * (
            min(count, 5) + TITLE_WEIGHT * in_title + KEYWORD_WEIGHT * in_keywords
        )
    if not found:
        return None
    score *= found / len(terms)
    score += ANSWER_WEIGHT * _answer_value(doc, terms, weights, wants_number)
    phrase = _squash(" ".join(terms))
    if len(phrase) > 1 and phrase in doc.folded:
        score += PHRASE_WEIGHT * sum(weights.values())
    if doc.section in DERIVED_SECTIONS:
        score *= DERIVED_WEIGHT
    return score


def _grouped(
    scored: list[tuple[float, Doc]],
    terms: dict[str, frozenset[str]],
    weights: dict[str, float],
    wants_number: bool,
    language: str,
) -> list[Result]:
    """One result per section and snippet, naming every variant where it reads the same."""
    results: list[Result] = []
    grouped: dict[tuple[str, str], int] = {}
    matched = frozenset().union(*terms.values())
    for score, doc in scored:
        piece = best_piece(doc, terms, weights, wants_number, matched)
        key = (doc.section, doc.pieces[piece])
        if key in grouped:
            found_at = grouped[key]
            earlier = results[found_at]
            results[found_at] = Result(
                section=earlier.section,
                title=earlier.title,
                snippet=earlier.snippet,
                score=earlier.score,
                language=earlier.language,
                variants=(*earlier.variants, (doc.variant_id, doc.variant_name)),
            )
            continue
        if len(results) == MAX_RESULTS:
            continue
        grouped[key] = len(results)
        results.append(
            Result(
                section=doc.section,
                title=doc.title,
                snippet=snippet(doc.pieces[piece], doc.piece_tokens[piece], matched),
                score=score,
                language=language,
                variants=((doc.variant_id, doc.variant_name),),
            )
        )
    return results


def _marks(found: Iterable[Token], matched: frozenset[str]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for token in found:
        if token.text in matched:
            if spans and token.start <= spans[-1][1]:
                spans[-1] = (spans[-1][0], max(spans[-1][1], token.end))
            else:
                spans.append((token.start, token.end))
    return spans


def best_piece(
    doc: Doc,
    terms: dict[str, frozenset[str]],
    weights: dict[str, float],
    wants_number: bool,
    matched: frozenset[str],
) -> int:
    """Which piece of the doc holds the most (and rarest) query words.

    For a value or count question, a piece that gives a number is preferred among those
    holding the same words; between equals, the one holding them more often.
    """
    best, best_value = 0, -1.0
    for index, (words, has_number) in enumerate(
        zip(doc.piece_counts, doc.piece_numbers, strict=True)
    ):
        value = sum(weights[term] for term, forms in terms.items() if not forms.isdisjoint(words))
        if value and has_number:
            value *= 1 + (NUMBER_WEIGHT if wants_number else NUMBER_TIE)
        value += SNIPPET_TIE * sum(words[w] for w in matched if w in words)
        if value > best_value:
            best, best_value = index, value
    return best


def snippet(best: str, best_tokens: tuple[Token, ...], matched: frozenset[str]) -> Markup:
    """A piece of text trimmed around the words found, which are marked."""
    best_marks = _marks(best_tokens, matched)
    start, end = 0, len(best)
    if len(best) > SNIPPET_CHARS:
        first = best_marks[0][0] if best_marks else 0
        start = max(0, min(first - SNIPPET_CHARS // 4, len(best) - SNIPPET_CHARS))
        end = start + SNIPPET_CHARS
    parts: list[str | Markup] = ["…" if start > 0 else ""]
    cursor = start
    for mark_start, mark_end in best_marks:
        if mark_end <= start or mark_start >= end:
            continue
        mark_start, mark_end = max(mark_start, start), min(mark_end, end)
        parts.append(escape(best[cursor:mark_start]))
        parts.append(Markup("<mark>%s</mark>") % best[mark_start:mark_end])
        cursor = mark_end
    parts.append(escape(best[cursor:end]))
    parts.append("…" if end < len(best) else "")
    return Markup("").join(parts)
