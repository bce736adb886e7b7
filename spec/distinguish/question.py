"""A question (tell rule set `a` from rule set `b`) and its answer, a distinguishing
situation; which question each option is asked with, and what the two sides of a question
give to every kind of it (their rule sets, labels, clauses).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from mtrain.spec.catalog import Catalog, catalog
from mtrain.spec.ruleset import Ruleset

LEGAL_OPTIONS: Final = ("tile_set", "first_turn", "mexican_first_turn", "own_train_first",
                        "doubles", "follow_up", "double_order", "uncoverable_double",
                        "draw_rule")
KIND: Final[dict[str, str]] = {
    **{o: "legal" for o in LEGAL_OPTIONS},
    "marker_removal": "marker",
    "blocked_round": "blocked",
    "scoring": "score",
    "blank_values": "score",
    "tie_rule": "tie",
    "match_length": "match",
    "hand_sizes": "deal",
    "engine_procedure": "deal",
    "starting_seat": "deal",
    "doubles": "doubles",
}
"""Which question tells apart the values of each option."""
RELEVANT: Final[dict[str, tuple[str, ...]]] = {
    "legal": LEGAL_OPTIONS,
    "marker": (*LEGAL_OPTIONS, "marker_removal"),
    "blocked": (*LEGAL_OPTIONS, "blocked_round", "scoring", "blank_values"),
    "score": (*LEGAL_OPTIONS, "scoring", "blank_values"),
    "tie": (*LEGAL_OPTIONS, "scoring", "blank_values", "tie_rule"),
    "match": (*LEGAL_OPTIONS, "scoring", "blank_values", "tie_rule", "match_length"),
    "deal": ("tile_set", "hand_sizes", "engine_procedure", "starting_seat"),
    "doubles": LEGAL_OPTIONS,
}
"""The options that can change the answer of each kind of question."""


class DistinguishError(RuntimeError):
    """z3 answered unknown, or a witness could not be realised as a table."""


@dataclass(frozen=True)
class Question:
    """Tell rule set `a` from rule set `b`; `option` names the option asked about (if any).

    With `attribute`, the situation must owe the difference to `option` alone: `b` with
    `option` set back to `a`'s value answers as `a` does.
    """

    a: str
    b: str
    option: str | None = None
    attribute: bool = False
    a_options: tuple[tuple[str, str], ...] = ()
    b_options: tuple[tuple[str, str], ...] = ()
    a_table: tuple[tuple[int, int], ...] = ()
    b_table: tuple[tuple[int, int], ...] = ()
    """The hand-size tables each side deals (a rule-set file's own, `custom`, included)."""

    @property
    def kind(self) -> str:
        return KIND[self.option] if self.option else "legal"

    def options(self, side: str) -> dict[str, str]:
        return dict(self.a_options if side == "a" else self.b_options)

    def table(self, side: str) -> dict[int, int]:
        """The hand-size table of one side: its own rows, else the one its value names."""
        rows = self.a_table if side == "a" else self.b_table
        if rows:
            return dict(rows)
        return dict(catalog().options["hand_sizes"].values[self.options(side)["hand_sizes"]].table)


@dataclass
class Situation:
    """A distinguishing situation, ready to be written as a fixture."""

    question: Question
    kind: str
    start: dict[str, Any]
    """{"table": ...} or {"deal": ...}."""
    steps: list[str]
    expect_a: dict[str, Any]
    expect_b: dict[str, Any]
    clauses: list[str]
    summary: str
    """One line: what differs."""
    seconds: float = 0.0
    witness: dict[str, Any] = field(default_factory=dict)
    attributed: bool | None = None
    """With attribution asked: whether the situation owes the difference to the option
    alone (None: not asked)."""

    def to_json(self) -> dict[str, Any]:
        q = self.question
        return {"option": q.option, "kind": self.kind, "a": q.a, "b": q.b, **self.start,
                "steps": self.steps, "expect": {"a": self.expect_a, "b": self.expect_b},
                "summary": self.summary, "clauses": self.clauses,
                "attributed": self.attributed, "seconds": round(self.seconds, 3)}


def make_question(a: str | Ruleset, b: str | Ruleset, option: str | None = None,
                  attribute: bool = False, cat: Catalog | None = None) -> Question:
    cat = cat or catalog()
    ra = a if isinstance(a, Ruleset) else cat.ruleset(a)
    rb = b if isinstance(b, Ruleset) else cat.ruleset(b)
    return Question(ra.name, rb.name, option, attribute, tuple(ra.items()), tuple(rb.items()),
                    ra.hand_table, rb.hand_table)


# -- the two sides of a question --------------------------------------------------------


def side_ruleset(q: Question, side: str) -> Ruleset:
    """A Ruleset for one side: its name and options as the question gives them."""
    name = q.a if side == "a" else q.b
    return Ruleset(name=name, choices=tuple(q.options(side).items()), hand_table=((2, 1),))


def side_label(q: Question, side: str) -> str:
    if q.option is None:
        return q.a if side == "a" else q.b
    return q.options(side)[q.option]


def flipped(q: Question) -> dict[str, str]:
    """Rule set b with the asked option set back to a's value."""
    assert q.option is not None
    c = q.options("b")
    c[q.option] = q.options("a")[q.option]
    return c


def option_clauses(q: Question, option: str) -> list[str]:
    cat = catalog()
    out: list[str] = []
    for v in (q.options("a")[option], q.options("b")[option]):
        out += [c.id for c in cat.clauses_for(option, v) if c.id not in out]
    return out
