"""A mutant: one rule bug, and the reference engine with it switched on.

A `MutantImplementation` is a `ReferenceImplementation` that, for the duration of one
call, builds the engine's `Rules` with a flag changed, swaps engine functions for faulty
versions (restored when the call returns), or post-processes the JSON it returns. Because
the swapped function is the one the engine itself calls, `legal()` and `apply()` always
agree, as they would in a real buggy engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from mtrain.conformance import reference_adapter as adapter_module
from mtrain.conformance.adapter import JSON, DecodedStates, ReferenceImplementation, fingerprint
from mtrain.conformance.answers import CheckedImplementation, Problem, rules_of, state_problems
from mtrain.reference import codec, engine, invariants, refusals
from mtrain.reference import deal as deal_module
from mtrain.reference.engine import State
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import Catalog, catalog

RulesHook = Callable[[Rules], Rules]
DealHook = Callable[[JSON, Rules], JSON]
WinnersHook = Callable[[State], list[int]]


@dataclass(frozen=True)
class Mutant:
    """One rule bug. `patches` maps an engine function's name to its faulty replacement."""

    name: str
    description: str
    clauses: tuple[str, ...]
    mechanism: str
    rules: RulesHook | None = None
    patches: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    post_deal: DealHook | None = None
    winners: WinnersHook | None = None

    def implementation(self) -> MutantImplementation:
        return MutantImplementation(self)

    def to_json(self) -> JSON:
        hooks = [*(["rules"] if self.rules else []), *sorted(self.patches),
                 *(["deal"] if self.post_deal else []), *(["winners"] if self.winners else [])]
        return {"name": self.name, "description": self.description,
                "clauses": list(self.clauses), "mechanism": self.mechanism, "hooks": hooks}


# --- swapping engine functions ---------------------------------------------------------

# deal.py, codec.py and refusals.py import a few engine functions by name; a swap must
# reach them too.
_SITES: dict[str, tuple[ModuleType, ...]] = {
    "_place_engine": (engine, deal_module),
    "_check_blocked": (engine, deal_module),
    "engine_number": (engine, deal_module, codec),
    "no_such_round": (engine, deal_module, codec),
    "_engine_from_deal": (engine, deal_module),
    "draw_winner": (deal_module,),
    "deal_pool": (deal_module,),
    "deal": (deal_module, adapter_module),  # reference_adapter.py deals through its own import
    # refusals.py (apply and the refusals) imports these by name from the engine
    "legal_actions": (engine, refusals),
    "perform": (engine, refusals),
    "duties": (engine, refusals),
    "playable_trains": (engine, refusals),
    "stranded": (engine, refusals),
    "unbound": (engine, refusals),
    "_refusals": (refusals,),
}


@contextmanager
def swapped(patches: Mapping[str, Callable[..., Any]]) -> Iterator[None]:
    """Replace engine functions (everywhere they are looked up) until the block ends."""
    if patches and not str(engine.__file__).endswith(".py"):
        # A compiled module calls its own functions directly: a swap would change nothing.
        raise RuntimeError("mutants swap the reference engine's functions, which the mypyc "
                           "build (MTRAIN_MYPYC=1) calls directly: install mtrain without "
                           "it to run them")
    saved: list[tuple[ModuleType, str, Any]] = []
    try:
        for name, fn in patches.items():
            for module in _SITES.get(name, (engine,)):
                saved.append((module, name, getattr(module, name)))
                setattr(module, name, fn)
        yield
    finally:
        for module, name, old in reversed(saved):
            setattr(module, name, old)


_READING = (codec, invariants)
"""The modules that read and check a state (`ReferenceImplementation.state`)."""
_RULES: dict[Catalog, dict[object, Rules]] = {}
"""The engine's rules of each rule set asked about, under each catalogue: read once for
every swapped reference (the mutants, played one after another on the same rule sets),
as one reference reads them once for all its calls."""
_STATES = DecodedStates(8192)
"""The states read by the swapped references that read them as the reference does: the
mutants, played one after another, read the corpus's states (a few thousand) alike."""


class SwappedReference(ReferenceImplementation):
    """The reference engine with `patches` swapped in (see `swapped`) for every deal,
    legal and apply call."""

    remembers_states = False  # its answers, and the states it wrote, may differ by call

    def __init__(self, patches: Mapping[str, Callable[..., Any]]) -> None:
        super().__init__()
        self._rules = _RULES.setdefault(catalog(), {})
        self.patches = patches
        self.reads_alike = not any(module in _READING for name in patches
                                   for module in _SITES.get(name, (engine,)))
        """Whether a state is read and checked as the reference reads it, swapped or not:
        none of the functions swapped is one the reading calls."""
        if self.reads_alike:
            self._states = _STATES

    def state(self, ruleset: JSON, state: JSON) -> State:
        """The reference's reading of `state`: where the swaps leave the reading as it is,
        a state read before is not read again (a fixture's states come back under every
        rule set and at every step); each call gets a copy of its own, since a swapped
        function may write on the state it is given."""
        if not self.reads_alike:
            return super().state(ruleset, state)
        st, _ = self._read(self.rules(ruleset), state, fingerprint(state))
        return st.copy()

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        with swapped(self.patches):
            return super().deal(ruleset, players, round, order, draw)

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        with swapped(self.patches):
            return super().legal(ruleset, state)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        with swapped(self.patches):
            return super().apply(ruleset, state, action)


class MutantImplementation(SwappedReference):
    """The reference engine with one mutant switched on."""

    def __init__(self, mutant: Mutant) -> None:
        super().__init__(mutant.patches)
        self.mutant = mutant
        self._mutated: dict[int, Rules] = {}

    def info(self) -> JSON:
        return {**super().info(), "name": f"mtrain-mutant:{self.mutant.name}"}

    def rules(self, ruleset: JSON) -> Rules:
        base = super().rules(ruleset)
        hook = self.mutant.rules
        if hook is None:
            return base
        found = self._mutated.get(id(base))
        if found is None:
            found = self._mutated[id(base)] = hook(base)
        return found

    def differs_under(self, ruleset: JSON) -> bool:
        """False when this mutant provably behaves as the reference under `ruleset`."""
        m = self.mutant
        if m.patches or m.post_deal or m.winners:
            return True
        return self.rules(ruleset) is not super().rules(ruleset)

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        state = super().deal(ruleset, players, round, order, draw)
        if self.mutant.post_deal is not None:
            state = self.mutant.post_deal(state, self.rules(ruleset))
        return state

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        hook = self.mutant.winners
        with swapped(self.mutant.patches):
            if hook is None:
                return super().winners(ruleset, state)
            st = codec.state_from_json(self.rules(ruleset), state)
            if not deal_module.match_over(st):  # MATCH-1 as the reference has it: a hook's
                return []  # bug is in who wins, not in whether the match is over
            return hook(st)


class CheckedMutant(CheckedImplementation):
    """A mutant with every answer checked (answers.CheckedImplementation), the states it
    returns read through the memo the mutants share: most are states the reference
    plays, which every mutant returns alike, more of them than the harness's own memo
    keeps."""

    def state_problems(self, ruleset: JSON, state: Any, dealt: bool = False) -> list[Problem]:
        return state_problems(ruleset, state, dealt=dealt,
                              read_by=(rules_of(ruleset), _STATES))
