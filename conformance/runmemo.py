"""The scope check's memo of traced runs (conformance/traced.py): what each run of a
fixture found, by what its rule set answered to the questions the run asked of it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mtrain.conformance.adapter import JSON
from mtrain.reference.rules import Rules
from mtrain.spec.ruleset import Ruleset

Question = tuple[str, Any]
"""What a traced run asked the rules: ("flag", name), ("option", name), ("size", players),
("deals", players), ("counts", 0), ("every", 0), ("custom", 0), ("unknown", 0), and
("says", (option, value)): whether the option takes that value (Ruleset.says); ("pool",
(option, value)) the same, read only to build a deal's pool (Ruleset.pool_says); ("peek",
name) a flag read only to check a state (traced.TracedRules.peek); ("legal", question) any
of those, asked while a step's legality was judged (traced.Log.judging)."""


def answer(question: Question, rules: Rules, rs: Ruleset) -> Any:
    """What `rules` (the flags of `rs`) answer to `question`, as a value to compare: the
    answer the run got, and for the hand table what its messages may quote as well."""
    kind, arg = question
    if kind == "legal":  # asked judging a step's legality: answered as asked elsewhere
        return answer(arg, rules, rs)
    try:
        if kind in ("flag", "peek"):  # a peek reads the flag as well
            value = getattr(rules, arg)
            if isinstance(value, dict):
                return tuple(sorted(value.items()))
            try:  # (a flag of another shape, say a list, compared by its text)
                hash(value)
            except TypeError:
                return ("unhashable", repr(value))
            return value
        if kind == "option":
            return (rs[arg], rs.hand_table) if arg == "hand_sizes" else rs[arg]
        if kind in ("says", "pool"):
            return rs.says(*arg)
        if kind == "size":
            return rs.hand_size(arg)
        if kind == "deals":
            return rs.deals(arg)
        if kind == "counts":
            return rs.player_counts
        if kind == "custom":
            return rs.custom_table
        if kind == "unknown":
            return rs.unknown
        return (rs.choices, rs.hand_table)  # "every"
    except (KeyError, ValueError) as e:  # the run saw this error, message and all
        return ("raised", type(e).__name__, str(e))


def as_flags(asked: Iterable[Question]) -> tuple[Question, ...]:
    """A run's questions as a tree that only finds what runs found keeps them: a flag
    peeked to check a state ("peek", traced.TracedRules.peek) asked as the flag itself,
    once. The two get the same answer (`answer`) and differ only in what the log makes of
    them (whether the option decides), which a walk does not read: conform's passes
    (resultmemo.py) and the scope check's runs (traced.traced_run, not its plays, whose
    questions are asked again as they were: traced._ask_again). Half of a default
    conform's 39,000 peeks are of a flag the run reads again as a flag, a node every rule
    set after it walked for nothing."""
    out: dict[Question, None] = {}
    for question in asked:
        out[("flag", question[1]) if question[0] == "peek" else question] = None
    return tuple(out)


class Node:
    __slots__ = ("at", "branches", "found")

    def __init__(self) -> None:
        self.branches: list[tuple[Question, dict[Any, Node]]] = []
        self.found: Any = None  # what a run that asked the questions on the way found
        # a play's state after step k, and the questions asked to reach it
        self.at: tuple[int, JSON, tuple[Question, ...]] | None = None


class QuestionTree:
    """What runs found, by what their rule sets answered to what they asked: a tree of
    questions, which a rule set walks by its answers."""

    def __init__(self) -> None:
        self.root = Node()

    def find(self, rules: Rules, rs: Ruleset, answers: dict[Question, Any] | None = None
             ) -> tuple[Any, Node | None]:
        """What a run found whose every question `rs` answers alike; else the node of
        the furthest state of a play on the way (None: none). `answers`: what `rs`
        answered before (filled in as it answers more), for a caller walking many trees
        with one rule set."""
        answers = {} if answers is None else answers
        best: Node | None = None
        best_k = -1  # the step of best's state
        # depth first, without recursion (a closure calling itself is a reference cycle
        # left to the collector, once per rule set asked); a node of one branch (the
        # engine is deterministic: nearly every node) is walked down in place
        todo = [self.root]
        while todo:
            node = todo.pop()
            while True:
                if node.found is not None:
                    return node.found, best
                at = node.at
                if at is not None and (best is None or at[0] > best_k):
                    best, best_k = node, at[0]
                branches = node.branches
                if len(branches) == 1:
                    question, kids = branches[0]
                    said = answers.get(question, answers)
                    if said is answers:
                        said = answers[question] = answer(question, rules, rs)
                    kid = kids.get(said)
                    if kid is None:
                        break
                    node = kid
                    continue
                below = []
                for question, kids in branches:
                    said = answers.get(question, answers)
                    if said is answers:
                        said = answers[question] = answer(question, rules, rs)
                    kid = kids.get(said)
                    if kid is not None:
                        below.append(kid)
                todo += reversed(below)  # the first branch first, as the runs asked
                break
        return None, best

    @staticmethod
    def extend(node: Node, asked: Iterable[Question], rules: Rules, rs: Ruleset,
               answers: dict[Question, Any] | None = None) -> Node:
        """The node below `node` that answering `asked` as `rs` does leads to (`answers`:
        as for `find`)."""
        answers = {} if answers is None else answers
        for question in asked:
            said = answers.get(question, answers)
            if said is answers:
                said = answers[question] = answer(question, rules, rs)
            kids = None
            for known, branch in node.branches:  # (one, nearly always)
                if known == question:
                    kids = branch
                    break
            if kids is None:
                kids = {}
                node.branches.append((question, kids))
            below = kids.get(said)
            if below is None:  # (a Node made only when none is there)
                below = kids[said] = Node()
            node = below
        return node

    def keep(self, asked: Iterable[Question], rules: Rules, rs: Ruleset, found: Any,
             answers: dict[Question, Any] | None = None) -> None:
        self.extend(self.root, asked, rules, rs, answers).found = found


class RunMemo:
    """The runs of one fixture (all of the same entries), by what their rule sets
    answered to what they asked.

    The engine and the harness see a rule set only through the questions a traced run
    records (the flags of reference/rules.py, the options and hand-table rows of the
    Ruleset): a rule set that answers every question of a run as its rule set did plays
    the fixture as that run did, to the same outcomes and messages. Options are coarser
    than flags (every engine procedure but two lays the engine by its holder), so points
    of different cells often play alike: they take the run found, with their own values.
    A rule set that answers the questions of a run's first steps alike, but not the
    rest, takes the state those steps reached, asks their questions again through its
    traced view (so that its log reads as if it had played them), and goes on from
    there; one that answers all its steps' questions alike takes what the steps gave."""

    def __init__(self, plays: QuestionTree | None = None) -> None:
        self.runs = QuestionTree()  # (Run, the player counts whose hand size was read)
        # what play() gave, and the states on the way: `plays` shared by the fixtures
        # that play alike (partition.plays_of)
        self.plays = QuestionTree() if plays is None else plays
