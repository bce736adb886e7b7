"""The rule sets a fuzz run plays: each in every form the fuzzer needs, and the default
draw of shipped variants and overlay combinations, within what the implementation declares.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mtrain.conformance.adapter import JSON, ruleset_json
from mtrain.conformance.protocol import encode_value
from mtrain.reference.rules import Rules
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.notation import max_pip_of
from mtrain.spec.ruleset import CUSTOM, OTHER, Ruleset
from mtrain.spec.scope import Space
from mtrain.spec.yamlload import SpecError

PLAIN_SHARE = 0.25
"""Share of default games played under a shipped variant with no overlay."""
EXTRA_OVERLAYS = (0, 0, 1, 1, 2)
"""How many overlays a default game adds to the one it draws in turn (one is chosen)."""


@dataclass(frozen=True)
class Context:
    """One rule set, in every form the fuzzer needs.

    A rule set with rules of its own (`other`) is played by the reference under a known
    stand-in value for each of them (`rs`, what requests send, as conform sends one);
    `unknown` names them, and an answer the stand-in's run reads one of them for is not
    the rules' answer, so it is not judged (own_rules.py)."""

    name: str
    rs: Ruleset  # the rules played and sent: `declared`, its `other` values stood in for
    rules: Rules
    rj: JSON
    rj_bytes: bytes  # the rule set as the protocol sends it, encoded once
    max_pip: int
    declared: Ruleset  # as declared (a rule-set file, an implementation's info)
    unknown: frozenset[str] = frozenset()  # the options played `other`


_OWN: dict[str, Context] = {}
"""Rule sets no catalogue name resolves to (an implementation's declared rules), by name."""


def context(variant: str) -> Context:
    """The rule set `variant` names (a variant, or base+overlay+...; or a declared rule
    set of its own, once `declared_context` has met it)."""
    own = _OWN.get(variant)
    return own if own is not None else _named(variant)


def is_own(variant: str) -> bool:
    """True for a declared rule set of its own: no catalogue name gives its rules."""
    return variant in _OWN


@functools.cache
def _named(variant: str) -> Context:
    return _context_of(catalog().ruleset(variant))


def _context_of(rs: Ruleset) -> Context:
    played = stand_in(rs) if rs.unknown else rs
    rj = ruleset_json(played)
    encoded = encode_value(rj)
    return Context(rs.name, played, Rules.of(played), rj, encoded, max_pip_of(played), rs,
                   frozenset(rs.unknown))


def stand_in(rs: Ruleset) -> Ruleset:
    """`rs` with a known value for each option it plays `other` (the one most shipped
    variants play, valid beside its other rules: `commonest`), its own table kept: what
    the reference plays for it."""
    space = Space(catalog())
    point = space.point(rs)
    region = {o: frozenset((v,)) for o, v in point.items() if v != OTHER}
    found = space.complete(region, {o: commonest(o) for o in rs.unknown})
    if found is None:
        raise RulesetError(f"{rs.name}: no known value of {', '.join(rs.unknown)} is valid "
                           "beside its other rules, so no known rule set stands in for it")
    if rs.custom_table:
        found["hand_sizes"] = CUSTOM
    return Ruleset(rs.name, tuple((o, found[o]) for o, _ in rs.choices), rs.hand_table,
                   rs.overlays)


def commonest(option: str) -> str:
    """The known value of `option` most shipped variants play (the first in the
    catalogue's order among those level): a house rule is a change to some common rule,
    and the nearer the stand-in, the fewer answers its rule leaves unjudged (waybill's
    first turn of one tile and no double: 277 answers not judged under `chain`, the
    first value, 39 under `single`; hopper's 272 and 70; siding's 377 and 121: fuzz as
    their tests run it, seed 1). (Not kept: the catalogue in force may change, and the
    variants' rule sets are kept by `context`.)"""
    cat = catalog()
    played = [context(base).rs[option] for base in cat.variants]
    values = [v for v in cat.options[option].values if v != OTHER]
    return max(values, key=lambda v: (played.count(v), -values.index(v)))


def _same(a: Ruleset, b: Ruleset) -> bool:
    return dict(a.choices) == dict(b.choices) and a.hand_table == b.hand_table


def name_of(rs: Ruleset) -> str | None:
    """The name (base+overlay+...) of the shipped rule set with exactly the rules of `rs`,
    if one has them: the overlays tried are those whose every change `rs` makes."""
    for base in catalog().variants:
        plain = context(base).rs
        if _same(plain, rs):
            return base
        near = []
        for overlay in overlays_for(base):
            changed = dict(context(f"{base}+{overlay}").rs.choices)
            if all(rs[o] == v for o, v in changed.items() if plain[o] != v):
                near.append(overlay)
        for k in range(1, min(len(near), 4) + 1):
            for chosen in itertools.combinations(near, k):
                name = canonical(base, set(chosen))
                if composes(name) and _same(context(name).rs, rs):
                    return name
    return None


def declared_context(rs: Ruleset, suffix: str = "declared") -> Context:
    """A rule set to play that an implementation declares or a rule-set file gives: under
    its shipped name when it has one (so that reproducers can name it), else under its own
    name (with `suffix` when that is a catalogue name for other rules)."""
    name = name_of(rs) if not rs.unknown else None
    if name is not None:
        return context(name)
    met = _OWN.get(rs.name)
    if met is not None and met.declared == rs:  # met before (another run in this process)
        return met
    if composes(rs.name) and rs.name not in catalog().added_examples:
        if not rs.unknown and _same(context(rs.name).rs, rs):  # an example's rules
            return context(rs.name)
        # its own name is a catalogue name for other rules
        rs = dataclasses.replace(rs, name=f"{rs.name} ({suffix})")
    known = _OWN.get(rs.name)
    # (one run declares one rule set under a name: a later run in the process replaces it)
    _OWN[rs.name] = ctx = known if known is not None and known.declared == rs \
        else _context_of(rs)
    return ctx


def known_here() -> tuple[dict[str, Ruleset], dict[str, str]]:
    """What this process knows beyond the catalogue: the declared rule sets of its own met
    (by name), and the rule-set files taken in as examples (name -> path). A worker not
    forked from this process (forkserver, spawn: the parent has threads) starts without
    them and is given them (`adopt`): under `--rules FILE --jobs 2` it knew no rule set
    of the file's name."""
    return ({n: c.declared for n, c in _OWN.items()}, dict(catalog().added_examples))


def adopt(known: tuple[dict[str, Ruleset], dict[str, str]]) -> None:
    """Take in what another process knew (known_here), under the same names."""
    own, examples = known
    for path in examples.values():
        catalog().add_example(path)
    for name, rs in own.items():
        if name not in _OWN:
            _OWN[name] = _context_of(rs)


def composes(name: str) -> bool:
    cat = catalog()
    if name.split("+")[0] not in cat.variants and name not in cat.examples:
        return False  # (an example once taken in and since forgotten is in _named's cache)
    try:
        context(name)
    except (RulesetError, SpecError):
        return False
    return True


@functools.cache
def overlays_for(base: str) -> tuple[str, ...]:
    """The overlays that compose with `base` on their own, in catalogue order."""
    return tuple(o for o in catalog().overlays if composes(f"{base}+{o}"))


Supported = Callable[[str], bool]


class Chooser:
    """Which rule set game `index` is played under.

    Named rule sets (--variant) are played in turn. By default: the shipped variants in
    turn, a quarter of the games with no overlay and the others with one overlay drawn in
    turn from those that compose with the variant (so each comes back every few dozen
    games) plus up to two more at random, kept when they compose. A rule set the
    implementation does not support is drawn again (it never plays one)."""

    def __init__(self, names: Sequence[str] = (), supported: Supported | None = None) -> None:
        self.names = list(names)
        self.supported = supported or (lambda name: True)
        self.bases = [b for b in catalog().variants if self.supported(b) or any(
            self.supported(f"{b}+{o}") for o in overlays_for(b))]

    @property
    def empty(self) -> bool:
        return not (self.names or self.bases)

    def describe(self) -> str:
        if self.names:
            return ", ".join(self.names)
        return (f"{', '.join(self.bases)} and their overlay combinations"
                if self.bases else "nothing")

    def __call__(self, index: int, rng: random.Random) -> str:
        if self.names:
            return self.names[index % len(self.names)]
        base = self.bases[index % len(self.bases)]
        overlays = overlays_for(base)
        plain = rng.random() < PLAIN_SHARE or not overlays
        for attempt in range(12):
            if plain and attempt == 0:
                name = base
            else:
                turn = overlays[(index // len(self.bases) + attempt) % len(overlays)]
                chosen = {turn}
                for _ in range(rng.choice(EXTRA_OVERLAYS)):
                    extra = rng.choice(overlays)
                    if composes(canonical(base, chosen | {extra})):
                        chosen.add(extra)
                name = canonical(base, chosen)
            if self.supported(name):
                return name
        # the base, or one of its single overlays, is supported (or it would not be a base)
        return next(n for n in (base, *(f"{base}+{o}" for o in overlays)) if self.supported(n))


def canonical(base: str, overlays: set[str]) -> str:
    """One name per combination: the overlays in catalogue order."""
    return "+".join([base, *(o for o in catalog().overlays if o in overlays)])


def mutant_variants(name: str) -> list[str]:
    """The rule sets worth fuzzing mutant `name` under.

    The shipped variants, and each shipped variant with one overlay, kept where one of
    the mutant's clauses applies; a variant with an overlay only where the overlay makes
    a difference (another of its clauses applies, or the mutant changes the rules only
    there). A mutant whose bug shows under no shipped variant is still fuzzed somewhere.
    """
    from mtrain.conformance.mutants import MUTANTS, MutantImplementation

    m = MUTANTS[name]
    impl = MutantImplementation(m)
    cat = catalog()

    def profile(rs: Ruleset) -> tuple[frozenset[str], bool] | None:
        applies = frozenset(c for c in m.clauses if c in cat.clauses and
                            cat.clauses[c].applies(rs))
        differs = impl.differs_under(ruleset_json(rs))
        return (applies, differs) if applies and differs else None

    out: list[str] = []
    for base in cat.variants:
        here = profile(cat.ruleset(base))
        if here is not None:
            out.append(base)
        for overlay in cat.overlays:
            try:
                rs = cat.ruleset(base, [overlay])
            except (RulesetError, SpecError):
                continue
            there = profile(rs)
            if there is not None and (here is None or there[0] - here[0]):
                out.append(rs.name)
    return out or list(cat.variants)
