"""The memo of runs' walk (runmemo.QuestionTree.find) reads a node's only branch from
`Node.sole`: that slot must follow every branch added, or a walk would miss the runs kept
under a node's later branches (or take a stale branch for the only one)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from mtrain.conformance.runmemo import QuestionTree


def _rules(**flags: Any) -> Any:
    """A stand-in for the engine's flags: a flag question reads an attribute."""
    return SimpleNamespace(**flags)


_RS: Any = None  # flag questions never read the rule set


def test_a_node_s_second_branch_is_walked_once_added() -> None:
    tree = QuestionTree()
    a, b, c = ("flag", "a"), ("flag", "b"), ("flag", "c")
    tree.keep([a, b], _rules(a=1, b=1, c=0), _RS, "first")
    (node,) = tree.root.branches[0][1].values()
    assert node.sole is node.branches[0]  # the only branch, as the walk reads it
    tree.keep([a, c], _rules(a=1, b=0, c=1), _RS, "second")
    assert node.sole is None and len(node.branches) == 2
    # answers b unlike the first run, c as the second: only the second branch finds it
    assert tree.find(_rules(a=1, b=5, c=1), _RS)[0] == "second"
    assert tree.find(_rules(a=1, b=1, c=9), _RS)[0] == "first"
    assert tree.find(_rules(a=1, b=1, c=1), _RS)[0] == "first"  # the first run first
    assert tree.find(_rules(a=1, b=7, c=7), _RS)[0] is None
    assert tree.find(_rules(a=2, b=1, c=1), _RS)[0] is None


def test_a_walk_answers_each_question_once_and_keeps_the_answers() -> None:
    tree = QuestionTree()
    a, b = ("flag", "a"), ("flag", "b")
    tree.keep([a, b], _rules(a=1, b=2), _RS, "kept")
    said: dict[Any, Any] = {}
    assert tree.find(_rules(a=1, b=2), _RS, said)[0] == "kept"
    assert said == {a: 1, b: 2}
    # answers given before are read, not asked again: a rule set of other flags whose
    # answers are already known walks by those
    assert tree.find(_rules(a=0, b=0), _RS, said)[0] == "kept"


def test_the_furthest_state_on_the_way_is_given_when_no_run_is_found() -> None:
    tree = QuestionTree()
    a, b = ("flag", "a"), ("flag", "b")
    rules = _rules(a=1, b=2)
    first = QuestionTree.extend(tree.root, [a], rules, _RS)
    first.at = (1, {"step": 1}, (a,))
    second = QuestionTree.extend(first, [b], rules, _RS)
    second.at = (2, {"step": 2}, (a, b))
    found, node = tree.find(_rules(a=1, b=3), _RS)
    assert found is None and node is first
    found, node = tree.find(rules, _RS)
    assert found is None and node is second
