"""The option space in z3, and the weighted MaxSAT that finds the rules an engine plays.

One integer per option, its last index meaning `other` (played in a way no known value
describes). A fixture is a soft constraint: the engine's rules lie in a region whose
rule sets pass and fail exactly the entries the engine did, or an option its outcome
depends on is `other`. Declaring an option `other` costs PRIOR_OTHER fixtures; keeping
an option at the base rule set's value is worth a little, less than one fixture, so that
where nothing tells two values apart the base's value is the answer.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import z3

from mtrain.conformance.bracket_alone import BRACKETS
from mtrain.conformance.identify.cells import ANY, Piece
from mtrain.spec.catalog import Catalog
from mtrain.spec.ruleset import OTHER
from mtrain.spec.scope import Space

FIXTURE = 10
"""The weight of one fixture."""
PRIOR_OTHER = 4 * FIXTURE
"""What declaring an option `other` costs: more than one or two contradicting fixtures
(a bug) must be explained before a rule is called unknown."""
BASE = 1
"""What keeping the base's value is worth, for each option: it decides ties only."""
NO_OTHER = ("tile_set", "hand_sizes")
"""A tile set is data; a hand table is measured (a table of one's own, never `other`)."""


class Model:
    """The option space in z3 (see the module docstring), in a z3 context of its own: z3
    breaks ties between equally good answers by the order its terms were made in, so
    terms that other runs left in a shared context would change the answer."""

    _forbidden: ClassVar[dict[int, tuple[Catalog, list[tuple[dict[str, str],
                                                         tuple[str, ...]]]]]] = {}

    @classmethod
    def of(cls, space: Space) -> Model:
        """A model of the space, in a fresh z3 context (the catalogue's forbidden
        combinations enumerated once per catalogue)."""
        return cls(space)

    def __init__(self, space: Space) -> None:
        self.space = space
        self.lean: list[Any] = []
        """Tie-breaks worth BASE each (Solver): a fixture the engine failed throughout is
        explained by `other` on an option it is about (`tested`) rather than another."""
        self.options = space.options
        self.ctx = z3.Context()
        # One Boolean per value (the last: `other`), exactly one true per option: a
        # purely propositional MaxSAT, faster in z3 than integers.
        self._eq = {(o, v): z3.Bool(f"{o}={v}", self.ctx) for o, vs in self.options.items()
                    for v in [*vs, OTHER]}
        self._inside: dict[Any, Any] = {}
        self.hard: list[Any] = []
        for o, vs in self.options.items():
            if o in NO_OTHER:
                self.hard.append(z3.Not(self._eq[o, OTHER]))
            self.hard.append(z3.PbEq([(self._eq[o, v], 1) for v in [*vs, OTHER]], 1))
        self.validity = [(z3.Not(self.all([self.eq(o, v) for o, v in values.items()])), names)
                         for values, names in self._combos()]

    def _combos(self) -> list[tuple[dict[str, str], tuple[str, ...]]]:
        """The catalogue's rules between options (Catalog.conflicts), each as the
        combinations of the few options one rule names that it forbids, enumerated
        rather than written a second time; with the options each names."""
        cat = self.space.cat
        found = self._forbidden.get(id(cat))
        if found is not None and found[0] is cat:
            return found[1]
        groups = {tuple(o for o in self.options if o in (*c.when, *c.requires))
                  for c in cat.constrained}
        groups.add(tuple(o for o in self.options if o in cat.DEAL8_OPTIONS))
        out = []
        for names in sorted(groups):
            for combo in itertools.product(*([*self.options[o], OTHER] for o in names)):
                values = dict(zip(names, combo, strict=True))
                if OTHER in (values.get("tile_set"), values.get("hand_sizes")):
                    continue
                if cat.conflicts(*self.space.catalog_form(values)):
                    out.append((values, names))
        self._forbidden[id(cat)] = (cat, out)
        return out

    def all(self, terms: Sequence[Any]) -> Any:
        """And, in this model's context (also of no terms)."""
        return self._junction(z3.Z3_mk_and, terms)

    def any(self, terms: Sequence[Any]) -> Any:
        """Or, in this model's context (also of no terms)."""
        return self._junction(z3.Z3_mk_or, terms)

    def _junction(self, make: Any, terms: Sequence[Any]) -> Any:
        """The term z3.And or z3.Or makes of `terms`, made without their checks and casts
        (a fifth of identify's time): every term here is a Boolean of this context."""
        asts = (z3.Ast * len(terms))(*(t.as_ast() for t in terms))
        return z3.BoolRef(make(self.ctx.ref(), len(terms), asts), self.ctx)

    def eq(self, option: str, value: str) -> Any:
        return self._eq[option, value]

    def inside(self, region: Mapping[str, frozenset[str]], other: Sequence[str] = ()) -> Any:
        """The region as a z3 formula, each option of `other` also allowed `other` (built
        once per region)."""
        key = tuple(sorted(region.items()))
        found = self._inside.get((key, tuple(other)))
        if found is None:
            found = self._inside[key, tuple(other)] = self.all([
                self.any([self.eq(o, v) for v in sorted(vs)]
                         + ([self.eq(o, OTHER)] if o in other else [])) for o, vs in key])
        return found

    def held(self, m: Any, terms: Sequence[Any], ids: Sequence[int]) -> list[bool]:
        """Whether each term holds in model `m` (any value where it says nothing), given
        the terms' ids (equal terms are one term: evaluated once): evaluated through z3's C
        interface rather than its Python wrappers, whose checks and casts cost a tenth of
        identify's time over a thousand fixtures per answer."""
        ctx, model, out = self.ctx.ref(), m.model, {}
        result = (z3.Ast * 1)()
        for t, i in zip(terms, ids, strict=True):
            if i in out:
                continue
            if not z3.Z3_model_eval(ctx, model, t.as_ast(), True, result):
                raise AssertionError("z3 evaluated no value of a term in its own model")
            out[i] = z3.Z3_get_bool_value(ctx, result[0]) == z3.Z3_L_TRUE
        return [out[i] for i in ids]

    def values(self, m: Any) -> dict[str, str]:
        """Each option's value in model `m` (exactly one of its Booleans is true: hard)."""
        terms = [(o, v, self._eq[o, v]) for o, vs in self.options.items() for v in [*vs, OTHER]]
        held = self.held(m, [t for _, _, t in terms], range(len(terms)))
        out: dict[str, str] = {}
        for (o, v, _), true in zip(terms, held, strict=True):
            if true and o not in out:
                out[o] = v
        missing = [o for o in self.options if o not in out]
        if missing:
            raise AssertionError(f"no value of {missing[0]} in the model")
        return out


def moment_options(clauses: Iterable[str], cat: Catalog) -> frozenset[str]:
    """The options the `when:` of a fixture's clauses name: those whose rule decides the
    moment the fixture is about (TURN-2 and TURN-5, the draw rule's, for a table with a
    tile drawn), as its author listed them."""
    known = cat.clauses
    return frozenset(o for c in clauses if c in known for o in known[c].when)


def constraint(model: Model, pieces: Sequence[Piece], outcomes: Sequence[str | None],
               escapable: Sequence[str], declared: frozenset[str] = frozenset(),
               only: Mapping[str, frozenset[str]] | None = None,
               lacking: Mapping[str, frozenset[str]] | None = None,
               moments: frozenset[str] = frozenset(),
               unbracketed: frozenset[str] = frozenset(),
               shown: Mapping[str, frozenset[str]] | None = None) -> Any | None:
    """The rule sets that pass and fail exactly the entries the engine did (an option
    `other` taking, in this fixture, whichever known value explains it: an engine that
    plays a rule its own way still plays each table somehow); where no rule set does,
    or the engine fails every entry (an answer no known value gives), also an option the
    outcome depends on played `other`, or one the engine declares `other` (`declared`)
    that the runs read: where its known values agree, a rule of its own may still differ
    (roundhouse keeps a drawn tile that both known draw rules play), and conform makes
    such an entry not applicable. An option of `only` stands, played `other`, for the
    values it names alone, and never for an answer no known value gives (observe.py,
    SETUP_ONLY). An option of `moments` (moment_options: one whose clause the fixture
    lists) that the runs read where its known values agree, played `other`, gives an
    answer no entry gives too, within the pieces that read it (`moment`). An option of
    `lacking` (the engine refused a deal there, which the reference deals under some of
    its values) holds only at the values named, those
    without the table, or `other` standing for them: a refusal is evidence against
    every value that has the table, which no other option's rule of its own explains
    (signalbox refuses round 10's deal, and `full`, whose match has it, was found sure
    with `starting_seat: other` taking the value whose seat fails both entries). A value
    whose rules never have the table (ANY) is not contradicted there, but `other` never
    stands for it, nor does an option read only by such values count as one the outcome
    depends on (lacks_table): bugs on tables one value lacks are not a rule of one's own.
    `shown`: the values the engine was seen to play their own way (`played`), for which
    a rule of one's own may stand where no entry holds (`vacuous`). None when nothing was
    seen."""
    only = only or {}
    seen = [(i, o) for i, o in enumerate(outcomes) if o is not None]
    if not seen:
        return None
    cells = [p for p in pieces if all(p.outcomes[i] in (o, ANY) for i, o in seen)]
    read = {o for p in pieces for o in p.read} & declared
    free = [o for o in escapable if o not in only]
    held = [p for p in pieces if all(p.outcomes[i] != ANY for i, _ in seen)]
    # a rule the engine declares its own whose known values bracket every rule between
    # them (bracket_alone.BRACKETS: where they agree, so does it, as conform judges)
    # explains only where they differ: drover's winners missing past a total of 127
    # (MATCH-2) were read as its own train rule, `other` on their two fixtures at no cost;
    # not one the engine was seen to play outside the bracket (`unbracketed`)
    bracketed = BRACKETS.keys() - unbracketed
    # an option that changes the outcomes only by values under which no entry holds
    # (`vacuous`) is no rule the fixture tells: played `other`, declared so or not, it
    # explains no failure of every entry (an answer no value gives is another matter),
    # unless the engine was seen to play such a value elsewhere (`shown`)
    failed = all(o == "fail" for _, o in seen)
    empty = vacuous(held, seen, shown, declared) if failed else frozenset()
    own = [model.eq(o, OTHER) for o in sorted((set(depends(held)) | (read - bracketed))
                                              - empty) if o in free]
    inside: list[Any] = []
    live: dict[tuple[int, ...], list[Mapping[str, frozenset[str]]]] = {}
    for p in cells:
        # (an option of `only` stands for the values it names, as they have the table or
        # not; any other, not for a value whose rules never have it: lacks_table, nor
        # for one under which no entry holds where it changes nothing else: `vacuous`)
        lacks = lacks_table(p, pieces, seen, live)
        if empty and all(p.outcomes[i] == "fail" for i, _ in seen):
            lacks |= empty
        inside.append(model.inside(p.region, [
            o for o in escapable
            if (p.region.get(o, only[o]) & only[o] if o in only else o not in lacks)]))
    about = [model.eq(o, OTHER) for o in tested(pieces, outcomes) if o in free]
    if about:  # explained by known values, or else by `other` on what it is about
        model.lean.append(model.any([*(model.inside(p.region) for p in cells), *about]))
    if failed:
        # an answer no entry gives, on a table whose moment an option decides though its
        # known values agree there (the reference reads it for the trace: what a drawn
        # tile may do is the draw rule's, TURN-3): a rule of one's own of that option
        # gives it too, within the pieces that read it, as conform makes such an entry
        # not applicable; only an option whose clause the fixture lists, not every flag
        # the run happens to read (trestle's drawn tile played anywhere failed 32 drawn
        # tables, read as bugs in own_train_first, the option their outcome depends on)
        # (and a bracketed option the engine plays outside its bracket, `unbracketed`:
        # ballbridge's follow-up never covers the double just laid, which its known
        # values all allow, on tables whose fixtures list no follow-up clause)
        own += moment(model, pieces, held,
                      [o for o in free if o in moments or o in unbracketed], read)
    if not cells:
        if lacking and all(o == "fail" for _, o in seen):
            # the refusal is what the values lacking the table answer (their pieces not
            # explored: a later round's situation from play, made under a rule set that
            # has it), or `other` standing for them: viaduct's match of its own
            return _lacking(model, model.all([]), lacking)
        return _lacking(model, model.any(own), lacking or {})
    if failed or not any(any(p.outcomes[i] != ANY for i, _ in seen) for p in cells):
        # an answer no entry gives: a rule of one's own of an option the outcome depends
        # on gives it too, not only a region where every entry happens to fail; and so an
        # answer only the values that never have the table "give" (their pieces are ANY
        # at every entry seen), where no value that has it does: kettle's round 10 opened
        # at seat 10 mod 3 passed s61-round-001's entry of the double-10 sets alone, and
        # its declared `starting_seat: other` could not stand for highest-draw (which
        # lacks the table), so the fixture was left a likely bug of an engine with none
        inside += own
    return _lacking(model, model.any(inside), lacking or {})


def moment(model: Model, pieces: Sequence[Piece], held: Sequence[Piece],
           free: Sequence[str], skip: Iterable[str] = ()) -> list[Any]:
    """For each piece of `held` and each option of `free` it reads whose values the
    fixture's outcomes do not depend on (`depends`: its known values agree), that option
    played `other` with the rest of the answer inside the piece: the region where a rule
    of one's own of that option decides the fixture's moment (the options of `skip`
    aside, already `other` anywhere). Not an option some value of which never has the
    table (`enabling`): that one opens the moment, another decides it (doubles: ordinary
    has no follow-up, whose tile follow_up places). The rest of the piece may be `other`
    too, each option standing for its values there, as in the cells that explain a
    fixture."""
    agree = ({o for p in held for o in p.read} - set(depends(held)) - set(skip)
             - enabling(pieces, held))
    out = []
    for p in held:
        for o in sorted(agree & set(p.read) & set(free)):
            rest = {k: vs for k, vs in p.region.items() if k != o}
            # (the rest may be `other` too, each standing for its values in the piece)
            out.append(model.all([model.eq(o, OTHER),
                                  model.inside(rest, [k for k in free if k in rest])]))
    return out


def enabling(pieces: Sequence[Piece], held: Sequence[Piece]) -> frozenset[str]:
    """The options pinned by a piece whose rules never have the fixture's table (one not
    `held`: its outcomes ANY), i.e. the options some value of which has no such table."""
    kept = {id(p) for p in held}
    return frozenset(o for p in pieces if id(p) not in kept for o in p.region)


def _lacking(model: Model, c: Any, lacking: Mapping[str, frozenset[str]]) -> Any:
    """`c`, where each option of `lacking` is one of the values it names or `other`."""
    if not lacking:
        return c
    return model.all([c, *(model.any([*(model.eq(o, v) for v in sorted(vs)),
                                      model.eq(o, OTHER)])
                           for o, vs in sorted(lacking.items()))])


def lacks_table(piece: Piece, pieces: Sequence[Piece], seen: Sequence[tuple[int, str | None]],
                live: dict[tuple[int, ...], list[Mapping[str, frozenset[str]]]] | None = None
                ) -> frozenset[str]:
    """The options whose values in `piece` never have the table of an entry seen (its
    outcome ANY there) that a piece differing from it in that option alone has: a rule of
    the engine's own of that option may not stand for them there. That a known value
    never meets a table says nothing of what the engine answers on it; `other` taking it
    would take every such table of every value at once (interlock's drawn-tile bug,
    failing on tables only open doubles have and on tables only ordinary ones have, was
    explained by `doubles: other` on both). `live`, shared by the calls of one fixture's
    constraint, keeps the pieces with an outcome at each set of entries asked of it."""
    anys = tuple(i for i, _ in seen if piece.outcomes[i] == ANY)
    if not anys:
        return frozenset()
    found = None if live is None else live.get(anys)
    if found is None:  # the pieces with an outcome at an entry `piece` lacks
        found = [q.region for q in pieces if any(q.outcomes[i] != ANY for i in anys)]
        if live is not None:
            live[anys] = found
    # a piece differing in `o` alone: of the options both pin, `o` is the only one whose
    # values they share none of (one pass over the piece's options, stopped at a second)
    mine, out = piece.region.items(), set()
    for theirs in found:
        apart = None
        for k, vs in mine:
            t = theirs.get(k)
            if t is not None and t.isdisjoint(vs):
                if apart is not None:
                    break
                apart = k
        else:
            if apart is not None:
                out.add(apart)
    return frozenset(out)


def tested(pieces: Sequence[Piece], outcomes: Sequence[str | None]) -> list[str]:
    """The options a fixture that the engine failed throughout is about: each entry it
    saw holds under values of the option that no other entry's do (score-009's four
    entries, one per blank rule). An answer no known value gives there is most likely a
    rule of that option's own, not of another option the outcome also reads (caboose's
    blank ends at 10 made the scoring fixtures fail, and `other` cost the same on scoring
    as on blank_values: z3 picked either)."""
    seen = [i for i, o in enumerate(outcomes) if o is not None]
    if len(seen) < 2 or any(outcomes[i] != "fail" for i in seen):
        return []
    out = []
    for o in sorted({o for p in pieces for o in p.region}):
        held: list[frozenset[str]] = []
        for i in seen:
            where = [p for p in pieces if p.outcomes[i] == "pass"]
            if not where or any(o not in p.region for p in where):
                break
            held.append(frozenset().union(*(p.region[o] for p in where)))
        else:
            if all(not a & b for a, b in itertools.combinations(held, 2)):
                out.append(o)
    return out


def vacuous(held: Sequence[Piece], seen: Sequence[tuple[int, str | None]],
            shown: Mapping[str, frozenset[str]] | None = None,
            declared: frozenset[str] = frozenset()) -> frozenset[str]:
    """The options on which a fixture of two entries or more depends (`depends`) only
    through values under which none of its entries holds: such a value, a rule of one's
    own standing for it, fits every value of the options the entries tell apart at once
    (brakeman's release of its own, read as the release after the layer's turn, under
    which no double binds, fitted 19 tables of its Mexican-first order to both known
    orders). Whether the engine plays that value is for the fixtures that value holds:
    not an option one of whose such values the engine was seen to play its own way
    (`shown`, `played`), where its rule of one's own may well be that value (tender's
    doubles, ordinary on the layer's own train and open elsewhere, passed 9 tables only
    ordinary doubles hold, and failed 8 tables of a double laid on its own train whose
    entries tell follow-ups or orders apart). The catalogue does not tell the two apart:
    the release after the layer's turn leaves the order nothing to decide (DBL-7 and DBL-8
    apply under the releases that bind), as ordinary doubles leave the follow-up (DBL-11).
    Nor an option the engine declares its own (`declared`: `other`) where it declares every
    option the entries tell apart a known value: a table failed throughout is then either
    its declared rule of its own taking the table's premise away (as the vacant value
    does) or a bug against a declared known value; its word chooses the first, and the
    table is no evidence against the values it declares (a match of 4 rounds declared
    `other` fails the tie-rule tables of a last round its match never reaches, which
    single-round fails too; read as vacuous, 39 such tables wrote single-round). Where it
    declares a told option its own as well, that rule explains the table by itself, and
    the vacant value stays vacuous (brakeman declares its release and its order its own)."""
    if len(seen) < 2:
        return frozenset()
    holding = [p for p in held if any(p.outcomes[i] == "pass" for i, _ in seen)]
    told = frozenset(depends(holding))
    if not told or len(holding) == len(held):  # no option's values the entries tell apart
        return frozenset()
    # (a declared rule of one's own may take the premise away where the engine's word
    # leaves the told options no rule of their own to fail them with)
    mine = declared if not told & declared else frozenset()
    out = set()
    for o in frozenset(depends(held)) - told - mine:
        values = {v for p in held for v in p.region.get(o, ())}
        # (a piece that does not pin the option holds an entry under each of its values)
        vacant = {v for v in values if not any(v in p.region.get(o, (v,)) for p in holding)}
        if not vacant & (shown or {}).get(o, frozenset()):
            out.add(o)
    return frozenset(out)


def played(tables: Iterable[tuple[Sequence[Piece], Sequence[str | None]]]
           ) -> dict[str, frozenset[str]]:
    """The values each option was seen played its own way, from each fixture's pieces and
    the engine's outcomes: the value to which every piece holding an entry the engine
    passed pins the option, where the entry fails (or errs) under another of its values
    (`vacuous`: a value seen played may be what a rule of one's own plays elsewhere)."""
    out: dict[str, set[str]] = {}
    for pieces, outcomes in tables:
        for i, outcome in enumerate(outcomes):
            holding = [p for p in pieces if p.outcomes[i] == "pass"] if outcome == "pass" else []
            if not holding:
                continue
            for o, vs in holding[0].region.items():
                if len(vs) != 1 or any(p.region.get(o) != vs for p in holding):
                    continue
                if any(p.outcomes[i] not in ("pass", ANY) and not vs <= p.region.get(o, vs)
                       for p in pieces):
                    out.setdefault(o, set()).update(vs)
    return {o: frozenset(vs) for o, vs in out.items()}


def depends(pieces: Sequence[Piece]) -> list[str]:
    """The options on whose value the fixture's outcomes depend: those where the outcomes
    some value allows differ from those of another value."""
    out = []
    for o in sorted({o for p in pieces for o in p.region}):
        values = sorted({v for p in pieces if o in p.region for v in p.region[o]})
        seen = [{p.outcomes for p in pieces if o not in p.region or v in p.region[o]}
                for v in values]
        if any(s != seen[0] for s in seen):
            out.append(o)
    return out


@dataclass
class Solution:
    values: dict[str, str]
    cost: int  # in FIXTURE units: violated fixtures, PRIOR_OTHER per `other`
    violated: list[str]


class Solver:
    """One weighted MaxSAT over the fixtures seen, asked again with extra hard
    constraints (push/pop) for each runner-up."""

    def __init__(self, model: Model, soft: list[tuple[Any, str]], fixed: Mapping[str, str],
                 allowed: Mapping[str, frozenset[str]], base: Mapping[str, str],
                 valid: bool = True) -> None:
        self.model = model
        self.soft = soft
        self.terms = [c for c, _ in soft]
        self.ids = [c.get_id() for c in self.terms]  # asked once, not at every answer
        opt = z3.Optimize(ctx=model.ctx)
        # wmax (exact, weights raised stratum by stratum) finds the same optimum as the
        # default maxres in a third to a quarter of the time on identify's problems; no
        # time limit: one that struck on a busy machine would change the answer
        opt.set("maxsat_engine", "wmax")
        # (the constraints go to z3's C interface as z3.Optimize.add and add_soft pass
        # them, the same calls in the same order, without the wrappers' casts and checks,
        # which were most of the CPU a solver's building took)
        ctx, handle, unnamed = model.ctx.ref(), opt.optimize, z3.to_symbol("", model.ctx)

        def add(terms: Iterable[Any]) -> None:
            for t in terms:
                z3.Z3_optimize_assert(ctx, handle, t.as_ast())

        def add_soft(terms: Iterable[Any], weight: int) -> None:
            for t in terms:
                z3.Z3_optimize_assert_soft(ctx, handle, t.as_ast(), str(weight), unnamed)
        add(model.hard)
        if valid:
            add(c for c, _ in model.validity)
        for o, v in fixed.items():
            opt.add(model.eq(o, v))
        for o, vs in allowed.items():
            if o not in fixed:
                opt.add(model.any([model.eq(o, v) for v in sorted(vs)]))
        add_soft((c for c, _ in soft), FIXTURE)
        add_soft(model.lean, BASE)
        # an option whose base is `other` (the engine declares the rule its own) has no
        # prior against `other`: its own word is the base, as a known value's is
        self.declared_other = {o for o, v in base.items() if v == OTHER and o not in NO_OTHER}
        for o in model.options:
            if o not in NO_OTHER and o not in fixed and o not in self.declared_other:
                opt.add_soft(z3.Not(model.eq(o, OTHER)), PRIOR_OTHER)
            if o in base and o not in fixed and (base[o] in model.options[o]
                                                 or o in self.declared_other):
                opt.add_soft(model.eq(o, base[o]), BASE)
        # Answers of equal weight: z3 picks one by what its context has seen (terms and
        # solves before, even unrelated ones), so the same fixtures could be answered
        # `full` or `other` as identify's path to them varied. Objectives after the first
        # (lexicographic: each only among the optima of those before) take each option's
        # earliest value in the space's order, `other` last: one answer. Asked of the
        # answer itself only (solve() with nothing added): on every rival too they cost
        # half as much again as identify's solving.
        self.ties = [(model.eq(o, v), len(known) + 1 - k, f"tie-{o}")
                     for o, known in model.options.items() if o not in fixed
                     for k, v in enumerate([*known, OTHER])]
        self.opt = opt

    def solve(self, extra: Sequence[Any] = (), ties: bool = False) -> Solution | None:
        """The best answer with `extra` added; the answer itself (nothing added), or with
        `ties`, the one the tie-break objectives choose among equally good ones (a rival
        whose value a finding names: otherwise it changed from run to run)."""
        self.opt.push()
        try:
            self.opt.add(*extra)
            for term, weight, objective in self.ties if ties or not extra else ():
                self.opt.add_soft(term, weight, id=objective)
            found = self.opt.check()
            if found == z3.unknown:  # no limit is set: z3 gave up (out of memory?)
                raise RuntimeError(f"z3 found no answer: {self.opt.reason_unknown()}")
            if found != z3.sat:
                return None
            m = self.opt.model()
        finally:
            self.opt.pop()
        values = self.model.values(m)
        held = self.model.held(m, self.terms, self.ids)
        violated = [name for (_, name), true in zip(self.soft, held, strict=True) if not true]
        others = sum(v == OTHER and o not in self.declared_other for o, v in values.items())
        return Solution(values, len(violated) * FIXTURE + others * PRIOR_OTHER, violated)


Bugs = Mapping[str, frozenset[str]]
"""The fixtures read as bugs, each with the options it is read as a bug in (pins.py)."""


def read_as_bug(model: Model, c: Any, options: Iterable[str]) -> Any:
    """Fixture constraint `c` with each of `options` played `other` (true whatever the
    answer's value of it): a fixture read as a bug in those options (pins.py) is no
    evidence about them, but still is about the rest: sets-048 shows interlock's
    uncoverable double released on an empty boneyard (DBL-9) whatever its drawn-tile bug
    (read as a bug in match_length) did, and left out, `doubles: ordinary` took its place
    and stays-open was named the nearest value."""
    pairs = [(model.eq(o, v), z3.BoolVal(v == OTHER, model.ctx))
             for o in sorted(options) for v in [*model.options[o], OTHER]]
    return z3.substitute(c, *pairs) if pairs else c
