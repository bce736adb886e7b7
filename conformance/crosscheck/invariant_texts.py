"""The invariants' texts against their checks: spec/data/invariants.yaml and
reference/invariants.py.

Every invariant id must have a check and every check an id; each invariant's `example`
(a change, written from its text, to the valid state of spec/data/invariant-base.yaml)
must be flagged by exactly the invariants its `flags` lists, and the unchanged state by
none. A check that tests something other than its text says misses its example or
flags another's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mtrain.spec.catalog import Catalog, catalog
from mtrain.spec.data_folder import load_data
from mtrain.spec.optionspace.grid import Finding

Change = Callable[[Any], None]


def check_invariants(cat: Catalog | None = None) -> tuple[list[Finding], list[str]]:
    """(defects, what passed): every invariant's example against the reference checks."""
    from mtrain.reference import invariants as I
    from mtrain.reference.codec import StateError, state_from_json
    from mtrain.reference.rules import Rules

    cat = cat if cat is not None else catalog()
    doc = load_data(cat.data_dir, "invariants.yaml")
    base_doc = load_data(cat.data_dir, "invariant-base.yaml")
    after_deal: dict[str, Callable[[Any], list[tuple[str, str]]]] = dict(I.AFTER_DEAL)
    checks = {**I.CHECKS, **after_deal}
    ids = [str(body.get("id")) for body in doc.data]
    out: list[Finding] = []
    out += [Finding(f"{doc.path}: {i} has no check in reference/invariants.py", (i,))
            for i in ids if i not in checks]
    out += [Finding(f"reference/invariants.py checks {i}, which {doc.path} does not state",
                    (i,)) for i in checks if i not in ids]
    try:
        rules = Rules.of(cat.ruleset(str(base_doc.data["ruleset"])))
        base = state_from_json(rules, base_doc.data["state"])
    except (StateError, KeyError, ValueError) as exc:
        return [*out, Finding(f"{base_doc.path}: the base state cannot be read: {exc}")], []

    def flagged(state: Any, fresh: bool) -> set[str]:
        found = {v for v, _ in I.violations(state)}
        if fresh:
            found |= {v for check in after_deal.values() for v, _ in check(state)}
        return found

    passed: list[str] = []
    broken = flagged(base, True)
    if broken:
        out.append(Finding(f"{base_doc.path}: the base state breaks {', '.join(sorted(broken))}",
                           tuple(sorted(broken))))
        return out, passed
    for i, body in enumerate(doc.data):
        iid = str(body.get("id"))
        ex = body.get("example")
        where = f"{doc.path}:{doc.line_of((i, 'example')) or doc.line_of((i,))}"
        if not isinstance(ex, dict) or not ex.get("flags"):
            out.append(Finding(f"{where}: {iid} has no example state with its `flags`", (iid,)))
            continue
        want = set(map(str, ex["flags"]))
        if iid not in want or (want != {iid} and not ex.get("reason")):
            out.append(Finding(f"{where}: {iid}: its example must flag {iid}, and say why "
                               "when it flags others too", (iid,)))
            continue
        state = base.copy()
        try:
            _apply(state, ex)
        except (KeyError, ValueError, TypeError) as exc:
            out.append(Finding(f"{where}: {iid}: the example cannot be applied: {exc}", (iid,)))
            continue
        got = flagged(state, bool(ex.get("after_deal")))
        if got != want:
            out.append(Finding(
                f"{iid}: its example ({where}) is flagged by {', '.join(sorted(got)) or 'nothing'}"
                f", not {', '.join(sorted(want))}: the text and the check disagree",
                tuple(sorted(got ^ want))))
        else:
            passed.append(iid)
    return out, passed


def _apply(state: Any, ex: Mapping[str, Any]) -> None:
    """Change a copy of the base state as the example says (engine fields, tile texts)."""
    from mtrain.reference.engine import Result
    from mtrain.spec import tiles as T

    def tile(text: Any) -> int:
        return T.parse(str(text), state.rules.max_pip)

    bone = list(state.boneyard)
    for old, new in (ex.get("boneyard") or {}).items():
        k = bone.index(tile(old))
        if new is None:
            del bone[k]
        else:
            bone[k] = tile(new)
    state.boneyard = bone
    if "move" in ex:
        what, where = ex["move"]
        t = tile(what)
        hands = list(state.hands)
        hands = [h & ~T.BIT[t] for h in hands]
        state.boneyard = [x for x in state.boneyard if x != t]
        if where == "boneyard":
            state.boneyard.append(t)
        else:
            seat = int(str(where).removeprefix("hand "))
            hands[seat] |= T.BIT[t]
        state.hands = hands
    for field, value in (ex.get("set") or {}).items():
        if field not in ("ends", "markers", "open_doubles", "seat", "phase"):
            raise KeyError(f"cannot set {field!r}")
        if field == "markers":  # written as one flag a train; the state keeps a bitmask
            value = sum(1 << i for i, up in enumerate(value) if up)
        setattr(state, field, list(value) if isinstance(value, list) else value)
    if "result" in ex:
        r = ex["result"]
        state.result = Result(str(r["end"]), int(r["winner"]), tuple(map(int, r["scores"])))
