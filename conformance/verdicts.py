"""`partition.applies`' verdicts kept on disk, for rule sets with rules of their own
(and `selection.unreached`'s, which every entry of theirs asks).

Under a rule set that plays an option its own way (`other`) or deals a table of its own,
whether a fixture's entry speaks about it takes a traced run of the reference
(`partition.applies`), and whether its table is ever reached takes a reading under each
known value (`selection.unreached`): about half of `select` under such rules, worked
out again by every run of the same rules over the same corpus. The verdict (None, or why
not) is a function of the entry, the rule set's value, the catalogue and the code: kept
in the cache (spec/cache.py) under a digest of the code and the spec data read
(`code_digest.code_and_data_digest`, the lint's), one entry per rule set, by each
fixture's file, place and entry. Only fixtures read from a file are kept
(fixture.source_key); a caller with an option space of its own keeps nothing
(selection.select_anew).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtrain.conformance.code_digest import code_and_data_digest
from mtrain.conformance.fixture import Expectation, Fixture, source_key
from mtrain.conformance.partition import applies
from mtrain.spec import cache
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

KIND = "applies"
KEPT_RULESETS = 64
"""The most rule sets whose verdicts the cache keeps (the least recently used go):
an author's few, and every example engine's rule file in the test suite."""


def ruleset_value(rs: Ruleset) -> str:
    """The rule set as `applies` reads it: name, values, hand table, overlays."""
    return repr((rs.name, rs.choices, rs.hand_table, rs.overlays))


class Verdicts:
    """`applies`' verdicts for one selection: read from the cache when first asked about
    a rule set, the new ones written back by `save`."""

    def __init__(self, space: Space) -> None:
        self.space = space
        self._code: str | None = None  # code_and_data_digest, read when first needed
        self._kept: dict[str, tuple[dict[str, str | None], dict[str, str | None]]] = {}
        # by the rule set's identity (held, so no other takes its id): its name in the
        # cache is a digest of its repr, which cost more than the lookups it keys
        self._by_rs: dict[int, tuple[Ruleset, tuple[dict[str, str | None],
                                                    dict[str, str | None]]]] = {}
        self.asked = 0
        self.worked_out = 0

    def applies(self, exp: Expectation, fx: Fixture, rs: Ruleset) -> str | None:
        """partition.applies(exp, fx, rs, self.space), kept."""
        self.asked += 1
        source = source_key(fx)
        index = next((k for k, e in enumerate(fx.expect) if e is exp), None)
        if source is None or index is None:
            self.worked_out += 1
            return applies(exp, fx, rs, self.space)
        found, added = self._of(rs)
        key = f"{source}:{index}"
        if key in found:
            return found[key]
        if key in added:
            return added[key]
        self.worked_out += 1
        why = added[key] = applies(exp, fx, rs, self.space)
        return why

    def unreached(self, fx: Fixture, rs: Ruleset, work: Callable[[], str | None]
                  ) -> str | None:
        """selection.unreached(fx, rs) (`work`), kept alike: a function of the fixture
        and the rule set, whichever entry asks."""
        source = source_key(fx)
        if source is None:
            return work()
        found, added = self._of(rs)
        key = f"{source}:unreached"
        if key in found:
            return found[key]
        if key not in added:
            added[key] = work()
        return added[key]

    def save(self) -> None:
        """Write the verdicts worked out since they were read, beside the ones kept."""
        for name, (found, added) in self._kept.items():
            if added:
                cache.update(KIND, name, _with(added), keep=KEPT_RULESETS)
                found.update(added)
                added.clear()

    def _of(self, rs: Ruleset) -> tuple[dict[str, str | None], dict[str, str | None]]:
        held = self._by_rs.get(id(rs))
        if held is not None and held[0] is rs:
            return held[1]
        kept = self._read(rs)
        self._by_rs[id(rs)] = (rs, kept)
        return kept

    def _read(self, rs: Ruleset) -> tuple[dict[str, str | None], dict[str, str | None]]:
        if self._code is None:
            self._code = code_and_data_digest(self.space)
        name = f"{cache.digest(self._code, ruleset_value(rs))}.json"
        kept = self._kept.get(name)
        if kept is None:
            read = cache.read(KIND, name)
            found: dict[str, str | None] = {
                k: v for k, v in read.items() if v is None or isinstance(v, str)
            } if isinstance(read, dict) else {}
            kept = self._kept[name] = (found, {})
        return kept


def _with(added: dict[str, str | None]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The cache entry as it stands now (another process may have added to it), with
    `added`."""
    return lambda now: {**now, **added}
