"""`mtrain identify`: which rules does an engine play?

Every fixture is played against the engine and each of its entries passes or fails. The
scope check's partition (conformance/partition.py) says, for every region of the option
space, which entries the rules of that region pass; so each fixture's observed pattern
places the engine's rules in the regions that show the same pattern. No single fixture is
trusted: z3 finds the valid rule set that agrees with the most fixtures (a weighted
MaxSAT), each option may also be `other` (played in a way no known value describes: the
fixtures that depend on it then say nothing) at a price, and for every option the
margin (how many more fixtures any other value would contradict) says how sure the
answer is. A bug shows as a few fixtures that no rule set explains; they are listed,
and left for `mtrain conform --rules` to report.

The hand-size table is measured directly, by asking the engine to deal for 2 to 20
players, so that a table of the engine's own is found exactly.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import z3

from mtrain.conformance.adapter import Implementation, RefusedSetup, ruleset_json
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.partition import Partition, explore
from mtrain.conformance.process import FAILURES, HarnessError
from mtrain.conformance.runner import check, play, setup_problems
from mtrain.spec.catalog import Catalog, RulesetError, catalog
from mtrain.spec.errors import InputError
from mtrain.spec.notation import max_pip_of
from mtrain.spec.ruleset import CUSTOM, MAX_PLAYERS, OTHER, Ruleset
from mtrain.spec.scope import Space, example_value
from mtrain.spec.tilesets import highest_numbers

PRIOR_OTHER = 3
"""What declaring an option `other` costs, in fixtures: more than one or two
contradicting fixtures (a bug) must be explained before a rule is called unknown."""
SURE = 2
"""A value is `sure` when every other value contradicts at least this many more fixtures."""
NO_OTHER = ("tile_set", "hand_sizes")
"""A tile set is data; a hand table is measured (`other` there only when measured so)."""


FIRST_SAMPLE = 24
"""Tables read under each candidate for the first rule set sent."""
MAX_FAILED = 5
"""Requests that may fail (a crash, a timeout, an answer that is not one) before identify
stops: each failure makes the fixture it was asked for say nothing, and one engine that
keeps failing would be played against every rule set, table size and fixture for minutes
to give an answer nothing supports."""


class EngineFailed(InputError):
    """The engine failed too often (or stopped starting): no identification is given."""


class Watched:
    """The implementation under identification, its failures counted: past MAX_FAILED
    (or once it is not started again, as conform stops starting it) an EngineFailed,
    which no caller mistakes for one fixture's failure."""

    def __init__(self, impl: Implementation, limit: int = MAX_FAILED) -> None:
        self.impl = impl
        self.limit = limit
        self.failed: list[str] = []

    def _call(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self.impl, method)(*args)
        except HarnessError as e:
            if e.given_up:
                raise EngineFailed(f"the implementation stopped working: {e.message}"
                                   ) from None
            if isinstance(e, FAILURES):
                self.failed.append(f"{e.status}: {e.message}")
                if len(self.failed) >= self.limit:
                    raise EngineFailed(
                        f"{len(self.failed)} requests to the implementation failed (the "
                        f"last: {self.failed[-1]}); a rule set found from what is left "
                        "could not be trusted, so identify stopped") from None
            raise

    def info(self) -> Any:
        return self._call("info")

    def deal(self, ruleset: Any, players: int, round: int, order: list[str]) -> Any:
        return self._call("deal", ruleset, players, round, order)

    def legal(self, ruleset: Any, state: Any) -> Any:
        return self._call("legal", ruleset, state)

    def apply(self, ruleset: Any, state: Any, action: Any) -> Any:
        return self._call("apply", ruleset, state, action)

    def score(self, ruleset: Any, state: Any, *winner: Any) -> Any:
        return self._call("score", ruleset, state, *winner)

    def winners(self, ruleset: Any, state: Any) -> Any:
        return self._call("winners", ruleset, state)


@dataclass
class Observation:
    fixture: Fixture
    outcomes: tuple[str | None, ...]  # per entry: pass | fail | None (not run)
    notes: list[str] = field(default_factory=list)


@dataclass
class OptionFinding:
    option: str
    value: str
    status: str  # sure | likely | undetermined | other
    margin: int
    evidence: list[str]  # fixtures that rule the runner-up out
    alternatives: list[str] = field(default_factory=list)


@dataclass
class Identification:
    ruleset: Ruleset
    findings: list[OptionFinding]
    unexplained: list[str]  # fixtures no identified rule set explains: likely bugs
    observed: int
    informative: int
    seconds: float
    hand_table: dict[int, int] | None
    declared: Ruleset | None = None
    sent: str = ""

    def to_file(self, cat: Catalog) -> dict[str, Any]:
        options: dict[str, Any] = {}
        for o, v in self.ruleset.choices:
            options[o] = ({str(n): h for n, h in self.ruleset.hand_table}
                          if o == "hand_sizes" and v == CUSTOM else v)
        evidence = {f.option: f"{f.status} (margin {f.margin}): "
                    + (", ".join(f.evidence[:6]) or "no fixture tells its values apart")
                    for f in self.findings}
        return {"name": self.ruleset.name,
                "description": "Found by mtrain identify: the closest rule set to what the "
                               "engine plays.",
                "options": options, "evidence": evidence}


# --- observing -----------------------------------------------------------------------


def observe(fixtures: Sequence[Fixture], impl: Implementation, sent: Ruleset,
            informative: set[str]) -> list[Observation]:
    """Play every informative fixture once, then check each of its entries."""
    rj = ruleset_json(sent)
    out = []
    for fx in fixtures:
        if fx.id not in informative:
            continue
        obs = Observation(fx, tuple(None for _ in fx.expect))
        try:
            played = play(fx, sent, impl, rj)
        except (HarnessError, ValueError, KeyError, TypeError) as e:
            obs.notes.append(f"not run: {e}")
            out.append(obs)
            continue
        if not isinstance(played, tuple) and played.refusal is not None:  # refused setup
            obs.outcomes = tuple("fail" if setup_problems(exp, played.refusal) else "pass"
                                 for exp in fx.expect)
            out.append(obs)
            continue
        if not isinstance(played, tuple):  # a refused step: every entry fails
            obs.outcomes = tuple("fail" if played.status == "fail" else None
                                 for _ in fx.expect)
            out.append(obs)
            continue
        state, rj_sent = played
        outcomes: list[str | None] = []
        for exp in fx.expect:
            try:
                problems = check(exp, rj_sent, state, impl, max_pip_of(sent))
                outcomes.append("fail" if problems else "pass")
            except RefusedSetup:  # a table it would not have: the entry does not hold
                outcomes.append("fail")
            except (HarnessError, ValueError, KeyError, TypeError):
                outcomes.append(None)
        obs.outcomes = tuple(outcomes)
        out.append(obs)
    return out


def measure_hand_table(impl: Implementation, sent: Ruleset) -> dict[int, int] | None:
    """Hand sizes by players, from deals the engine makes (None if it deals none)."""
    return measure_deals(impl, sent)[0]


def measure_deals(impl: Implementation, sent: Ruleset) -> tuple[dict[int, int] | None,
                                                                dict[str, str]]:
    """(hand sizes by players, what the deals show of the rule set), from deals the engine
    makes; (None, {}) if it deals none. A deal holds every tile of the set but the engine,
    and [N-(N-1)] is never the engine: the highest number dealt is the set's N (SET-1),
    whatever rule set the request named. An engine set aside is in the centre when the
    deal is done (ENG-2); one the holder lays is not yet (ENG-3)."""
    from mtrain.conformance.fixture import Fixture as _F

    table: dict[int, int] = {}
    top, placed = -1, set()
    rj = ruleset_json(sent)
    for players in range(2, MAX_PLAYERS + 1):
        probe = _F("probe", "", (), (), "", None, None, {"players": players}, (), ())
        try:
            n, round_no, order, _ = probe.deal_request(sent)
            state = impl.deal(rj, n, round_no, order)
            sizes = [len(h) for h in state["hands"]]
            tiles = [*itertools.chain.from_iterable(state["hands"]), *state["boneyard"]]
            numbers = [int(x) for tile in tiles for x in str(tile).split("-")]
            engine_placed = state["engine_placed"] is True
        except (HarnessError, RefusedSetup, ValueError, KeyError, TypeError):
            continue  # a count it does not deal (DEAL-7), or cannot
        if len(sizes) == players and sizes and max(sizes) > 0:
            table[players] = max(sizes)  # ENG-3: the holder placed one from its hand
            top = max([top, *numbers])
            placed.add(engine_placed)
    shown: dict[str, str] = {}
    sets = [v for v, n in highest_numbers().items() if n == top]
    if table and len(sets) == 1:
        shown["tile_set"] = sets[0]
    if table and len(placed) == 1:
        shown["engine_procedure"] = "set-aside" if placed.pop() else "holder-lays"
    return (table or None), shown


def _first_guess(impl: Implementation, fixtures: Sequence[Fixture],
                 informative: set[str]) -> Ruleset:
    """The rule set to send first: the tile set and engine procedure under which the
    engine deals and reads the most tables (the others only ever give errors)."""
    cat = catalog()
    best: tuple[tuple[int, int, int], Ruleset] | None = None
    sample = {fx.id for fx in fixtures if fx.id in informative and fx.table is not None}
    sample = set(sorted(sample)[:FIRST_SAMPLE])
    # a rule set of each set under each engine procedure: the order a deal is asked
    # with holds the engine or not (ENG-2, ENG-3), and an engine deals only from its own
    space = Space(cat)
    tables = frozenset(v for v in space.options["hand_sizes"] if v != CUSTOM)
    for tile_set, procedure in itertools.product(space.options["tile_set"],
                                                 space.options["engine_procedure"]):
        values = space.complete({"tile_set": frozenset([tile_set]), "hand_sizes": tables,
                                 "engine_procedure": frozenset([procedure])})
        if values is None:
            continue
        rs = space.ruleset(values)
        # Whether it deals at all comes first, not how many rows: an engine deals only
        # from an order of its own set's tiles (SET-1), and the deal then shows the set;
        # a larger set's table lists more player counts, which says nothing.
        deals = 1 if measure_hand_table(impl, rs) else 0
        reads = sum(o is not None for ob in observe(fixtures, impl, rs, sample)
                    for o in ob.outcomes)
        if best is None or (deals, reads, -len(rs.name)) > best[0]:
            best = ((deals, reads, -len(rs.name)), rs)
    assert best is not None
    return best[1]


# --- solving -------------------------------------------------------------------------


class Model:
    """The option space in z3: one integer per option, its last index meaning `other`."""

    _built: ClassVar[dict[int, tuple[Catalog, Model]]] = {}

    @classmethod
    def of(cls, space: Space) -> Model:
        """The model of the space's catalogue, built once (building is the slow part)."""
        found = cls._built.get(id(space.cat))
        if found is None or found[0] is not space.cat:
            found = cls._built[id(space.cat)] = (space.cat, cls(space))
        return found[1]

    def __init__(self, space: Space) -> None:
        self.space = space
        self.options = space.options
        self.x = {o: z3.Int(o) for o in self.options}
        self.other = {o: len(vs) for o, vs in self.options.items()}
        self._eq = {(o, v): self.x[o] == k for o, vs in self.options.items()
                    for k, v in enumerate([*vs, OTHER])}
        self._inside: dict[Any, Any] = {}
        # (fixture, the outcomes seen) -> (its partition, the constraint)
        self.constraints: dict[tuple[int, tuple[tuple[int, str], ...]], tuple[Any, Any]] = {}
        self.hard: list[Any] = []
        for o, vs in self.options.items():
            top = len(vs) - 1 if o == "tile_set" else len(vs)
            self.hard.append(z3.And(self.x[o] >= 0, self.x[o] <= top))
        self.hard += self._validity()

    def _validity(self) -> list[Any]:
        """The catalogue's own constraints (Catalog.conflicts), as forbidden combinations
        of the few options they name, enumerated rather than written a second time."""
        cat = self.space.cat
        named = {o for c in cat.clauses.values() if c.requires for o in (*c.when, *c.requires)}
        named |= {"tile_set", "hand_sizes", "engine_procedure"}
        names = [o for o in self.options if o in named]
        out = []
        for combo in itertools.product(*([*self.options[o], OTHER] for o in names)):
            values = dict(zip(names, combo, strict=True))
            if values["hand_sizes"] == OTHER or values["tile_set"] == OTHER:
                continue
            if cat.conflicts(*self.space.catalog_form(values)):
                out.append(z3.Not(z3.And([self.eq(o, v) for o, v in values.items()])))
        return out

    def eq(self, option: str, value: str) -> Any:
        return self._eq[option, value]

    def inside(self, region: Mapping[str, frozenset[str]]) -> Any:
        """The region as a z3 formula (built once per region: building is the slow part)."""
        full = self.space.full()
        key = tuple(sorted((o, vs) for o, vs in region.items() if vs != full[o]))
        found = self._inside.get(key)
        if found is None:
            found = self._inside[key] = z3.And([z3.Or([self.eq(o, v) for v in vs])
                                               for o, vs in key])
        return found

    def value(self, m: Any, option: str) -> str:
        k = m.eval(self.x[option], model_completion=True).as_long()
        return OTHER if k == self.other[option] else self.options[option][k]


def _constraint(model: Model, part: Partition, obs: Observation) -> Any | None:
    """The rule sets that pass and fail exactly the entries the engine did, or an
    option of the fixture played `other`."""
    seen = tuple((i, o) for i, o in enumerate(obs.outcomes) if o is not None)
    if not seen:
        return None
    known = model.constraints.get((id(part), seen))
    if known is not None and known[0] is part:
        return known[1]
    cells = [c for c in part.cells if all(c.run.outcomes[i] == o for i, o in seen)]
    full = model.space.full()
    depends = {o for c in part.cells for o, vs in c.region.items() if vs != full[o]}
    escape = [model.x[o] == model.other[o] for o in depends if o != "tile_set"]
    found = z3.Or([model.inside(c.region) for c in cells] + escape)
    model.constraints[id(part), seen] = (part, found)
    return found


def solve(model: Model, soft: list[tuple[Any, str]], fixed: Mapping[str, str] | None = None,
          extra: Sequence[Any] = ()) -> tuple[dict[str, str], int, list[str]] | None:
    """The assignment violating the fewest soft constraints: (values, cost, violated)."""
    opt = z3.Optimize()
    opt.set("timeout", 20000)
    opt.add(*model.hard, *extra)
    for o, v in (fixed or {}).items():
        opt.add(model.eq(o, v))
    for o in NO_OTHER:
        if o not in (fixed or {}):
            opt.add(model.x[o] != model.other[o])
    for c, _ in soft:
        opt.add_soft(c, 1)
    for o in model.options:
        if o not in NO_OTHER:
            opt.add_soft(model.x[o] != model.other[o], PRIOR_OTHER)
    if opt.check() != z3.sat:
        return None
    m = opt.model()
    values = {o: model.value(m, o) for o in model.options}
    violated = [name for c, name in soft if not z3.is_true(m.eval(c, model_completion=True))]
    cost = len(violated) + PRIOR_OTHER * sum(v == OTHER for v in values.values())
    return values, cost, violated


def identify(impl: Implementation, fixtures: Sequence[Fixture] | None = None,
             partitions: Mapping[str, Partition] | None = None,
             log: Any = None) -> Identification:
    started = time.perf_counter()
    cat = catalog()
    space = Space(cat)
    if fixtures is None:
        fixtures, errors = load_corpus()
        if errors:
            raise InputError(f"the fixture corpus does not load: {errors[0]}")
    parts = dict(partitions or {})

    def tells(fx: Fixture) -> bool:  # rule sets pass and fail it differently
        if fx.id not in parts:
            parts[fx.id] = explore(fx, space)
        return len({c.run.outcomes for c in parts[fx.id].cells}) > 1

    # The first guess reads the first FIRST_SAMPLE informative tables only: they are
    # explored first, and the engine asked at once, so that one that fails is stopped
    # (Watched) before the half minute that the rest of the partition takes.
    sample: set[str] = set()
    for fx in sorted((f for f in fixtures if f.table is not None), key=lambda f: f.id):
        if len(sample) >= FIRST_SAMPLE:
            break
        if tells(fx):
            sample.add(fx.id)
    sent = _first_guess(impl, fixtures, sample)
    informative = {fx.id for fx in fixtures if tells(fx)}
    informative |= {fid for fid, p in parts.items() if len({c.run.outcomes for c in p.cells}) > 1}
    model = Model.of(space)
    values: dict[str, str] = dict(sent.choices)
    observations: list[Observation] = []
    soft: list[tuple[Any, str]] = []
    fixed: dict[str, str] = {}
    table: dict[int, int] | None = None
    for _ in range(3):  # deal orders and tables follow the tile set and engine found
        table, shown = measure_deals(impl, sent)
        named = [v.name for v in cat.options["hand_sizes"].values.values()
                 if table and dict(v.table) == table]
        named += [example_value(n) for n, ex in cat.examples.items()
                  if table and dict(ex.hand_table) == table]  # a rule-set file's table
        # A table of the engine's own: the fixtures that depend on it say nothing.
        fixed = {"hand_sizes": named[0] if named else OTHER} if table else {}
        fixed.update(shown)  # SET-1, ENG-2, ENG-3: what the deals show
        observations = observe(fixtures, impl, sent, informative)
        soft = [(c, o.fixture.id) for o in observations
                if (c := _constraint(model, parts[o.fixture.id], o)) is not None]
        found = solve(model, soft, fixed)
        if found is None:
            raise InputError("no rule set is consistent with the option space (a bug in "
                             "the catalogue's constraints)")
        values, cost, violated = found
        key = ("tile_set", "engine_procedure")
        if all(values[k] == sent[k] for k in key):
            break
        stand = space.complete({o: frozenset((values[o],)) for o in key
                                if values[o] != OTHER})
        if stand is None:
            break
        sent = space.ruleset(stand)
    findings = []
    for option in model.options:
        best = values[option]
        if option in shown:
            findings.append(OptionFinding(option, best, "measured", 0, [
                f"dealt tiles numbered 0 to {highest_numbers()[best]}"
                if option == "tile_set" else
                f"the engine {'in' if best == 'set-aside' else 'not yet in'} the centre "
                "after the deal"]))
            continue
        if option in fixed:
            mine = best == OTHER
            findings.append(OptionFinding(
                option, CUSTOM if mine or best in space.tables else best, "measured", 0,
                [f"dealt {', '.join(f'{n}p: {h}' for n, h in (table or {}).items())}"]))
            continue
        # The runner-up: another known value, no option newly called `other`.
        keep = [z3.Not(model.eq(o, OTHER)) for o in model.options
                if values[o] != OTHER and (o == option or o not in fixed)]
        rival = solve(model, soft, fixed, extra=[z3.Not(model.eq(option, best)), *keep])
        if rival is None:
            findings.append(OptionFinding(option, best, "sure", 99, ["the only valid value"]))
            continue
        r_values, r_cost, r_violated = rival
        margin = r_cost - cost
        evidence = sorted(set(r_violated) - set(violated))
        status = ("other" if best == OTHER else "sure" if margin >= SURE
                  else "likely" if margin > 0 else "undetermined")
        alternatives = [r_values[option]] if margin <= 0 else []
        if best == OTHER:  # the fixtures no known value explains
            evidence = sorted(set(r_violated) - set(violated))
        findings.append(OptionFinding(option, best, status, margin, evidence, alternatives))
    hand_table: tuple[tuple[int, int], ...] | None = None
    if values["hand_sizes"] == OTHER or values["hand_sizes"] in space.tables:
        values["hand_sizes"] = CUSTOM
        hand_table = tuple(sorted((table or {}).items()))
    name = cat.describe(values)
    try:
        rs = cat.from_values(values, name=name, table=hand_table)
    except RulesetError:
        rs = Ruleset(name, tuple((o, values[o]) for o in cat.options),
                     hand_table or sent.hand_table)
    return Identification(rs, findings, violated, len(observations), len(informative),
                          time.perf_counter() - started, table, sent=sent.name)
