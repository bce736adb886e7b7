"""Which fixtures run under which rule sets: the rule sets asked for, declared or shipped
(the default matrix), every fixture under every rule set one of its entries speaks about,
and the situations from play under each, as tasks for the runner pool (pool.py)."""

from __future__ import annotations

import dataclasses
import fnmatch
import itertools
import math
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mtrain.conformance.blocked_alone import ONLY_BLOCKED, blocked_end_entry, blocked_entry
from mtrain.conformance.bracket_alone import bracket_cut, bracketed_entry, bracketed_options
from mtrain.conformance.deal_play_alone import dealt_play_entry, play_options
from mtrain.conformance.defaults import RESULTS_FLOOR, SITUATIONS, SITUATIONS_MIN
from mtrain.conformance.draw_alone import ONLY_DRAW, dry_draw_entry, first_draw_entry
from mtrain.conformance.fixture import Expectation, Fixture, duplicate_ids, load_corpus
from mtrain.conformance.lay_alone import lay_entry
from mtrain.conformance.marker_alone import marker_entry, marker_options
from mtrain.conformance.match_end_alone import match_end_entry, only_match_length
from mtrain.conformance.mexican_alone import OPTION as MEXICAN
from mtrain.conformance.mexican_alone import mexican_entry, mexican_options
from mtrain.conformance.mexican_with import pair_entry, pair_options
from mtrain.conformance.out_alone import out_entry, out_options
from mtrain.conformance.own_match_winners import own_match_winners
from mtrain.conformance.own_rounds import LastRounds, within
from mtrain.conformance.partition import OWN_TABLE, OWN_TABLE_AND_SEAT, applies, stand_in
from mtrain.conformance.release_alone import ONLY_RELEASE, release_entry
from mtrain.conformance.round_end_alone import only_round_end, round_end_entry
from mtrain.conformance.seat_alone import (
    dealt_entry,
    dealt_own_table_entry,
    seat_entry,
    table_entry,
)
from mtrain.conformance.seat_worth_alone import seat_and_round_end, seat_worth_entry
from mtrain.conformance.step_alone import named_options, own_steps_entry
from mtrain.conformance.table_alone import own_table_entry
from mtrain.conformance.traced import never_reached
from mtrain.conformance.verdicts import Verdicts
from mtrain.spec.catalog import RulesetError, catalog
from mtrain.spec.errors import InputError
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.scope import Product, Scope, Space
from mtrain.spec.yamlload import SpecError, file_problem


def load_fixtures(root: str | None) -> tuple[list[Fixture], list[SpecError]]:
    """The fixtures under `root` (default: the shipped corpus), and every load error (two
    fixtures of one id included: the second is not run)."""
    fixtures, errors = load_corpus(root)
    twice = duplicate_ids(fixtures)
    first = {fx.id: fx for fx in reversed(fixtures)}
    return [fx for fx in fixtures if first[fx.id] is fx], errors + twice


def shipped_fixtures(root: str) -> bool:
    """Whether `root` lies in the shipped corpus (which `mtrain lint` checks in CI)."""
    from mtrain.conformance.corpus_files import FIXTURE_ROOT

    return Path(root).resolve().is_relative_to(FIXTURE_ROOT)


@dataclass(slots=True)
class Task:
    """One fixture under one rule set: the entry that speaks about it, or why none can.
    Not to be changed once made (not frozen: a run makes 70,000, and a frozen dataclass
    sets each field through object.__setattr__, four times the cost)."""

    index: int
    fixture: Fixture
    ruleset: Ruleset
    expectation: Expectation | None
    sent: Ruleset | None = None
    """The rule set sent to the implementation: `ruleset`, or for one with rules of its
    own (`other`), a known rule set that plays this fixture the same."""
    why: str | None = None
    """Set when the fixture depends on a rule the implementation plays its own way."""

    @property
    def variant(self) -> str:
        return self.ruleset.name


def id_matches(fixture_id: str, patterns: Sequence[str]) -> bool:
    """-k: a substring of the id, or a glob (*, ?, [...]) matching the whole id."""
    for p in patterns:
        if any(c in p for c in "*?[") and fnmatch.fnmatchcase(fixture_id, p):
            return True
        if p in fixture_id:
            return True
    return not patterns


def situation_id_family() -> list[str]:
    """Every id a situation from play may have (situations.py and situation_deals.py name
    them play-KIND-NNN, numbered from 1, at most SITUATIONS_MAX of a kind): what a -k
    pattern may mean besides a fixture's id."""
    from mtrain.conformance.defaults import SITUATIONS_MAX
    from mtrain.conformance.situation_kinds import KINDS, LAID, PASSED, WRAP

    names = [k.name for k in (*KINDS, PASSED, LAID, WRAP)] + ["end", "deal", "dealt",
                                                               "dealt-later",
                                                               "dealt-own-last"]
    return ["play-deal-tie-001", "play-dealt-last-001"] + [
        f"play-{name}-{k:03d}" for name in names for k in range(1, SITUATIONS_MAX + 1)]


def unmatched_patterns(patterns: Sequence[str], fixture_ids: Sequence[str]) -> list[str]:
    """For each -k pattern that no fixture id of `fixture_ids` and no id a situation from
    play may have matches (id_matches), a line saying so with the ids close to it."""
    lost = [p for p in patterns if not any(id_matches(fid, [p]) for fid in fixture_ids)]
    if lost:
        family = situation_id_family()
        lost = [p for p in lost if not any(id_matches(sid, [p]) for sid in family)]
    return [f"-k {p}: no fixture id matches it, nor any id of a situation from play "
            f"(play-KIND-NNN){_slip(p, fixture_ids) or _close_ids(p, fixture_ids)}; -k "
            "takes part of an id (doubles-00) or a glob of a whole id ('doubles-0?1')"
            for p in lost]


def _slip(pattern: str, fixture_ids: Sequence[str]) -> str:
    """What a pattern matches once a slip is undone (spaces at its ends, capitals: ids
    are matched as written, in lower case), said as a hint; "" when none is."""
    for fixed, said in ((pattern.strip(), "without the spaces at its ends"),
                        (pattern.lower(), "in lower case, as ids are written"),
                        (pattern.strip().lower(), "in lower case and without the spaces "
                         "at its ends")):
        if fixed and fixed != pattern:
            hits = [fid for fid in fixture_ids if id_matches(fid, [fixed])]
            if hits:
                more = f", ... ({len(hits)})" if len(hits) > 3 else ""
                return f"; {said}, -k {fixed} matches {', '.join(hits[:3])}{more}"
    return ""


def _close_ids(pattern: str, fixture_ids: Sequence[str]) -> str:
    """"; ids close to it: ..." (at most five), or nothing when none is close."""
    import difflib

    bare = pattern.strip("*?")
    ids = sorted(set(fixture_ids))
    close = difflib.get_close_matches(bare, ids, n=5, cutoff=0.8)
    if not close:  # part of an id (`doubel`): against each id's start as long as it
        starts: dict[str, str] = {}
        for fid in ids:
            starts.setdefault(fid[:len(bare)], fid)
        close = [starts[s] for s in difflib.get_close_matches(bare, list(starts), n=5,
                                                              cutoff=0.75)]
    return f"; ids close to it: {', '.join(close)}" if close else ""


def normalize_variant(name: str) -> str:
    return "+".join(part.strip() for part in name.split("+"))


def check_variants(names: Sequence[str]) -> list[Ruleset]:
    out = []
    cat = catalog()
    for raw in names:
        try:
            out.append(cat.ruleset(normalize_variant(raw)))
        except (RulesetError, SpecError) as e:
            raise InputError(f"--variant {raw}: {e}") from None
    return out


def read_rules_files(paths: Sequence[str]) -> list[Ruleset]:
    return [rs for rs, _ in read_rules(paths)]


def read_rules(paths: Sequence[str], asked: Sequence[Ruleset] = ()
               ) -> list[tuple[Ruleset, str]]:
    """The rule set of each --rules file, with its path: a file given twice is read once,
    and two rule sets of one name (two files, or a file and a --variant in `asked`)
    are refused, naming both, unless they are the same rules."""
    out: list[tuple[Ruleset, str]] = []
    by_name: dict[str, tuple[Ruleset, str]] = {rs.name: (rs, f"--variant {rs.name}")
                                               for rs in asked}
    seen: set[str] = set()
    for path in paths:
        problem = file_problem(path)
        if problem is not None:
            raise InputError(f"--rules {path}: {problem}")
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        rs = catalog().rules_file(path)  # a SpecError names the file and line
        other = by_name.get(rs.name)
        if other is not None:
            if same_rules(rs, other[0]):
                continue
            raise InputError(f"--rules {path}: rule set {rs.name!r} is also the name of "
                             f"{other[1]}, with other rules; give each a name of its own "
                             "(`name:` in the file)")
        by_name[rs.name] = (rs, path)
        out.append((rs, path))
    return out


def same_rules(a: Ruleset, b: Ruleset) -> bool:
    return dict(a.choices) == dict(b.choices) and a.hand_table == b.hand_table


def default_rulesets(fixtures: Sequence[Fixture]) -> list[Ruleset]:
    """The shipped variants, each with every overlay that applies to it, every rule set
    a fixture names, and every one a fixture writes out (written_rulesets): what
    `mtrain conform` runs when nothing narrows it."""
    cat = catalog()
    names: list[str] = []
    for base in cat.variants:
        names.append(base)
        for overlay in cat.overlays:
            names.append(f"{base}+{overlay}")
    names += [n for fx in fixtures for n, _ in fx.rulesets()]
    out: dict[str, Ruleset] = {}
    for name in names:
        if name in out:
            continue
        try:
            out[name] = cat.ruleset(name)
        except (RulesetError, SpecError):
            continue  # an overlay that does not apply to that base
    found = list(out.values())
    return found + [rs for rs in written_rulesets(fixtures)
                    if not any(same_rules(rs, other) for other in found)]


def written_rulesets(fixtures: Sequence[Fixture]) -> list[Ruleset]:
    """The rule sets fixtures write out in full by option values: an entry that names no
    variant and whose `when:` gives one value for every option (as `mtrain fuzz` writes
    the reproducers of an engine's own rules). Each is named after the first fixture
    that writes it."""
    cat = catalog()
    out: dict[tuple[tuple[str, str], ...], Ruleset] = {}
    for fx in fixtures:
        for exp in fx.expect:
            if exp.variants or len(exp.scope.products) != 1:
                continue
            region = exp.scope.products[0].region()
            if set(region) != set(cat.options) or any(len(v) != 1 for v in region.values()):
                continue
            values = {o: next(iter(v)) for o, v in region.items()}
            key = tuple(sorted(values.items()))
            if key not in out:
                try:
                    out[key] = cat.from_values(values, name=f"as written in {fx.id}")
                except RulesetError:
                    continue  # values no rule set combines: lint says so
    return list(out.values())


def choose_rulesets(asked: Sequence[Ruleset], declared: Ruleset | None,
                    fixtures: Sequence[Fixture]) -> tuple[list[Ruleset], str, list[str]]:
    """(the rule sets to run, why those, warnings): those asked for (--variant, --rules),
    else the one the implementation declares, else the default matrix."""
    if asked:
        # said only where one of them plays other rules: an author who runs the file
        # their engine declares (as every house engine's test does) overrides nothing
        differ = declared is not None and not all(same_rules(rs, declared) for rs in asked)
        warn = [] if declared is None or not differ else [
            f"the rule sets asked for (--variant, --rules) win over the rules the "
            f"implementation declares ({declared.name}): they run, and only they"]
        return list(asked), "as asked", warn
    if declared is not None:
        return [declared], "declared by the implementation", []
    return default_rulesets(fixtures), "the default matrix", []


@dataclass
class Outside:
    """Per rule set, the selected fixtures that give no result: those set at a player
    count its hand table does not deal (`seats`: a 5-to-8-player table cannot have the
    corpus's 2-to-4-player tables), and those whose entries speak about other rules."""

    rules: dict[str, int]
    seats: dict[str, int]
    counts: dict[str, dict[int, int]]
    """Per rule set: the player counts of `seats`, with how many fixtures each."""


def players_of(fx: Fixture) -> int | None:
    """The number of seats of a fixture's table or deal (None if it has neither)."""
    if fx.deal is not None and isinstance(fx.deal.get("players"), int):
        return int(fx.deal["players"])
    hands = (fx.table or {}).get("hands")
    return len(hands) if isinstance(hands, (dict, list)) else None


_MEMO: dict[tuple[object, ...], tuple[Sequence[Fixture], list[Task], Outside]] = {}
"""select's answers in this process, by what they are worked out from (_memo_key)."""
MEMO_TASKS = 150_000
"""The most tasks kept in all (about 100 bytes each), the least recently asked answers
dropped first: two default matrices (70,000 tasks each), or the answers for every example
engine's rule file (about 1,000 each; their tests run each engine's conform twice, all
the engines' first runs before the second ones)."""


def _memo_key(fixtures: Sequence[Fixture], rulesets: Sequence[Ruleset],
              patterns: Sequence[str]) -> tuple[object, ...]:
    """Everything a selection reads, as a key. A fixture by identity: load_file gives the
    same objects for a file of the same text under the same catalogue, and new ones once
    either changes (the entry holds the list, so no identity is reused). The catalogue by
    identity and its example rule sets by value: Space reads their tables, and a --rules
    file adds one."""
    cat = catalog()
    return (id(cat), tuple(sorted(cat.examples.items())), tuple(rulesets),
            tuple(patterns), tuple(map(id, fixtures)))


def select(fixtures: Sequence[Fixture], rulesets: Sequence[Ruleset],
           patterns: Sequence[str], space: Space | None = None
           ) -> tuple[list[Task], Outside]:
    """Every fixture under every rule set one of its entries speaks about; and, per rule
    set, how many selected fixtures give no result, and why (Outside). Kept per process
    for the same fixtures, rule sets and patterns (a second `mtrain conform` under one
    rule file, as the example engines' tests run each twice, asks the same): the tasks
    are never changed once made, and each caller gets lists and counts of its own."""
    if space is not None:  # a space of the caller's own: not part of the key
        return select_anew(fixtures, rulesets, patterns, space)
    key = _memo_key(fixtures, rulesets, patterns)
    kept = _MEMO.pop(key, None)
    if kept is None:
        tasks, outside = select_anew(fixtures, rulesets, patterns)
        kept = (list(fixtures), tasks, outside)
    _MEMO[key] = kept  # the most recently asked last
    while len(_MEMO) > 1 and sum(len(t) for _, t, _ in _MEMO.values()) > MEMO_TASKS:
        del _MEMO[next(iter(_MEMO))]
    _, tasks, outside = kept
    return list(tasks), Outside(dict(outside.rules), dict(outside.seats),
                                {n: dict(c) for n, c in outside.counts.items()})


def select_anew(fixtures: Sequence[Fixture], rulesets: Sequence[Ruleset],
                patterns: Sequence[str], space: Space | None = None
                ) -> tuple[list[Task], Outside]:
    """select, worked out (nothing kept in this process; `applies`' verdicts on disk unless
    `space` is the caller's own)."""
    verdicts = None
    if space is None:
        space = Space()
        if any(rs.unknown or rs.custom_table for rs in rulesets):
            verdicts = Verdicts(space)
    tasks: list[Task] = []
    outside = Outside({rs.name: 0 for rs in rulesets}, {rs.name: 0 for rs in rulesets},
                      {rs.name: {} for rs in rulesets})
    values = [dict(rs.choices) for rs in rulesets]  # read once, not once per fixture
    dealt = [set(rs.player_counts) for rs in rulesets]
    inside = ScopeMasks(rulesets, values)
    for fx in fixtures:
        if not id_matches(fx.id, patterns):
            continue
        players = players_of(fx)
        first = inside.first_entries(fx.expect)
        for i, (rs, known, counts) in enumerate(zip(rulesets, values, dealt, strict=True)):
            if i in inside.plain:  # entry_for's first loop, by one bit per entry
                exp = first.get(i)
                why = None if exp is not None or fx.table is None else unreached(fx, rs)
            else:
                exp, why = entry_for(fx, rs, space, known, verdicts)
            if exp is None and why is None:
                if players is not None and players not in counts:
                    outside.seats[rs.name] += 1
                    by = outside.counts[rs.name]
                    by[players] = by.get(players, 0) + 1
                else:
                    outside.rules[rs.name] += 1
                continue
            sent = None if exp is None else stand_in(rs, exp, space)
            tasks.append(Task(len(tasks), fx, rs, exp, sent, why))
    if verdicts is not None:
        verdicts.save()
    return tasks, outside


def impossible_tables(tasks: Sequence[Task]) -> tuple[list[Task], list[str]]:
    """Tasks of fixture files of the user's own (lint holds the shipped corpus to this)
    whose starting table cannot exist under their rule set (a tile outside the set, an
    invariant broken: lint's check_start without its reachability, which lint alone
    judges), taken out and named as faults of the fixture, so that no implementation is
    asked about, or charged for, a table that cannot be."""
    from mtrain.conformance.lint import check_start

    kept: list[Task] = []
    under: dict[str, list[str]] = {}  # each problem (its rule set left out): where it is
    for t in tasks:
        if t.expectation is not None and t.why is None and (problems := check_start(
                t.fixture, t.expectation, _ANY, t.sent or t.ruleset, reach=False)):
            for p in problems:
                under.setdefault(p, []).append(t.ruleset.name)
            continue
        kept.append(t if t.index == len(kept) else dataclasses.replace(t, index=len(kept)))
    return kept, [p.replace(f"[{_ANY}]", f"[{_some(names)}]") for p, names in under.items()]


_ANY = "\0"  # a rule set's name no rule set has, replaced once the problems are grouped


def _some(names: Sequence[str]) -> str:
    return ", ".join(names) if len(names) <= 3 else (
        f"{', '.join(names[:3])} and {len(names) - 3} more rule sets")


def seats_warning(rs: Ruleset, outside: Outside) -> str | None:
    """What an author of an engine for other player counts than the corpus's needs to
    know: how many fixtures cannot run at all under its table, and at which counts."""
    n = outside.seats.get(rs.name, 0)
    if not n:
        return None
    by = outside.counts[rs.name]
    listed = ", ".join(f"{p} ({by[p]})" for p in sorted(by))
    return (f"{n} fixtures are set at player counts the hand table of {rs.name} does not "
            f"deal, and cannot run under it (DEAL-7): {listed} players (`other seats` in "
            "the table below); the situations from play are dealt at its own counts")


class ScopeMasks:
    """Which of the rule sets (those with every value known and the shipped tables) each
    scope contains, as one bit per rule set, from one mask per option value: a scope is
    asked about every rule set at once, not once per fixture and rule set."""

    def __init__(self, rulesets: Sequence[Ruleset], values: Sequence[dict[str, str]]) -> None:
        self.plain = frozenset(i for i, rs in enumerate(rulesets)
                               if not rs.unknown and not rs.custom_table)
        self._all = sum(1 << i for i in self.plain)
        self._by_value: dict[tuple[str, str], int] = {}
        for i in self.plain:
            for o, v in values[i].items():
                self._by_value[(o, v)] = self._by_value.get((o, v), 0) | 1 << i
        self._products: dict[Product, int] = {}

    def product(self, p: Product) -> int:
        """The rule sets whose value of each option p names is among p's values."""
        m = self._products.get(p)
        if m is None:
            m, by_value = self._all, self._by_value
            for o, vs in p.allowed:
                m &= sum(by_value.get((o, v), 0) for v in vs)
            self._products[p] = m
        return m

    def mask(self, scope: Scope) -> int:
        found = 0
        for p in scope.products:
            found |= self.product(p)
        return found

    def first_entries(self, entries: Sequence[Expectation]) -> dict[int, Expectation]:
        """For each rule set some entry speaks about, by index, the first such entry."""
        first: dict[int, Expectation] = {}
        left = self._all
        for e in entries:
            hits = self.mask(e.scope) & left
            left &= ~hits
            while hits:
                low = hits & -hits
                first[low.bit_length() - 1] = e
                hits ^= low
        return first


def situation_count(asked: int | None, fixtures_given: bool, rulesets: Sequence[Ruleset]) -> int:
    """Situations per rule set: as asked; else none beside a corpus of one's own; else
    SITUATIONS shared among the rule sets run, at least SITUATIONS_MIN each."""
    if asked is not None:
        return asked
    if fixtures_given or not rulesets:
        return 0
    return max(SITUATIONS_MIN, SITUATIONS // len(rulesets))


def count_for_floor(rs: Ruleset, count: int, corpus: int, last: LastRounds | None = None
                    ) -> int:
    """The situations to ask under a run's one rule set so that its `corpus` results and
    the situations reach RESULTS_FLOOR together: a table at 5 to 8 players meets few of
    the corpus's tables, and rules of its own leave out the situations that read them, so
    the count grows in proportion, with a margin (each count is made once and kept), at
    most fourfold. `last`: the rounds a match of its own has (own_rounds), the situations
    past them not counted, since they are left out."""
    from mtrain.conformance.situations import situations, stand_in_for  # z3: only if asked

    if corpus >= RESULTS_FLOOR or count <= 0 or stand_in_for(rs) is None:
        return count
    asked, most = count, 4 * count
    for _ in range(4):  # scaled with a margin: one more count made, seldom two
        made = len(within(situations(rs, asked), rs, last))
        if corpus + made >= RESULTS_FLOOR or made == 0 or asked >= most:
            break
        asked = min(most, math.ceil(asked * (RESULTS_FLOOR - corpus) / made * 1.25))
    return asked


def situation_tasks(rulesets: Sequence[Ruleset], count: int, patterns: Sequence[str],
                    first: int, last: Mapping[str, LastRounds] | None = None
                    ) -> tuple[list[Task], list[str]]:
    """Tables from play under each rule set (conformance/situations.py), as tasks; and a
    warning for each rule set that gets fewer than asked. `last`, by rule set name: the
    rounds a match of its own has (own_rounds); the situations past them are left out,
    and a warning counts them."""
    from mtrain.conformance.situation_deals import own_last_deals  # z3: only if asked
    from mtrain.conformance.situations import situations, stand_in_for

    tasks: list[Task] = []
    warnings = []
    # one space for every rule set (it depends on the catalogue alone, and its memos of
    # completions are exact): made once, not once per rule set (282 in a default run)
    shared: list[Space] = []
    for rs in rulesets:
        sent = stand_in_for(rs) if count else None
        wanted = (lambda fid: id_matches(fid, patterns)) if patterns else None  # None: cached
        made = situations(rs, count, wanted) if sent else []
        before = len(made)
        own = (last or {}).get(rs.name)
        if own is not None:
            kept = within(made, rs, own)
            if len(kept) < len(made):
                rounds = ", ".join(f"{r} at {n} players" for n, r in sorted(own.rounds.items()))
                what = "set in" if own.tables else "deals of"  # its tables, it plays
                warnings.append(
                    f"{len(made) - len(kept)} situations from play under {rs.name} left "
                    f"out: {what} rounds after the last its own match deals (match_length "
                    f"played its own way; its last round: {rounds})")
            made = kept
            # and the deal of the last round its match deals, which only it knows
            made += own_last_deals(rs, own.rounds, wanted)
        if sent is not None and made and not shared:
            shared.append(Space())
        space = shared[0] if sent is not None and made else None
        tasks += [Task(first + len(tasks) + k, fx, rs, fx.expect[0] if space is None else
                       own_match_winners(own_choices(fx.expect[0], fx, rs, space, sent),
                                         fx, rs, sent, own), sent)
                  for k, fx in enumerate(made)]
        # under -k the filter, not the rule played its own way, decides how many are
        # made: mtrain conform says so when nothing matches at all
        if count and rs.unknown and not patterns and before < count:  # cut, said why
            warnings.append(
                f"{before} situations from play under {rs.name} (of {count} asked): "
                f"only tables whose question reads none of {', '.join(rs.unknown)} "
                "(played its own way) speak about it, however the round came there")
    return tasks, warnings


def own_choices(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                sent: Ruleset | None = None) -> Expectation:
    """`exp` with the choices rules of one's own make on its last table left to them: the
    first draw (draw_alone.py), whether a double offered may be laid (lay_alone.py)."""
    return lay_entry(first_draw_entry(exp, fx, rs, space, sent), fx, rs, space, sent)


def entry_for(fx: Fixture, rs: Ruleset, space: Space, values: dict[str, str] | None = None,
              verdicts: Verdicts | None = None) -> tuple[Expectation | None, str | None]:
    """(the entry that speaks about `rs`, None), (None, why it cannot run: a table these
    rules never reach among the reasons), or (None, None) when every entry speaks about
    other rules. `values`: dict(rs.choices), if at hand; `verdicts`: `applies`' verdicts
    kept on disk, for `space` (else worked out)."""
    if not rs.unknown and not rs.custom_table:
        values = dict(rs.choices) if values is None else values
        for e in fx.expect:
            if e.scope.contains(values):
                return e, None
        return None, unreached(fx, rs)  # lint's scopes leave such rule sets out
    reasons = []
    seat: Expectation | None = None
    for exp in fx.expect:
        why = applies(exp, fx, rs, space) if verdicts is None else verdicts.applies(exp, fx, rs)
        if why is None and (never := never_for(fx, rs, verdicts)) is not None:
            reasons.append(never)
            continue
        if why is None:
            return own_choices(exp, fx, rs, space), None
        if why.startswith("its outcome depends"):
            reasons.append(why)
            if seat is None and why == ONLY_ENGINE:
                seat = seat_entry(exp, fx, rs, space)  # the first seat alone runs
            elif seat is None and why == ONLY_SEAT:  # the deal but its first seat, or
                seat = dealt_entry(exp, fx, rs, space) or table_entry(exp, fx, rs, space)
            elif seat is None and only_round_end(why):
                seat = round_end_entry(exp, fx, rs, space)  # all but what the end is worth
            elif seat is None and seat_and_round_end(why):
                seat = seat_worth_entry(exp, fx, rs, space)  # its worth, the next seat aside
            elif seat is None and only_match_length(why):
                seat = match_end_entry(exp, fx, rs, space)  # the winners once it is over
            elif seat is None and why == ONLY_BLOCKED:
                seat = blocked_entry(exp, fx, rs, space)  # all but the end, and its worth
            elif seat is None and (named := marker_options(why)):
                seat = marker_entry(exp, fx, rs, space, named)  # all but which markers are up
            elif seat is None and (named := bracketed_options(why)):
                seat = (bracketed_entry(exp, fx, rs, space, named)  # the known rules' bracket
                        or bracket_cut(exp, fx, rs, space, named))  # or what its ends share
            elif seat is None and (named := out_options(why)):
                seat = out_entry(exp, fx, rs, space, named)  # gone out, its doubles aside
            elif seat is None and why == ONLY_RELEASE:
                seat = release_entry(exp, fx, rs, space)  # all but whether a double binds
            elif seat is None and (named := mexican_options(why)):
                seat = (mexican_entry(exp, fx, rs, space, named)  # all but a Mexican opening
                        or (dealt_entry(exp, fx, rs, space, {MEXICAN})  # a deal, its seat aside
                            if named == {MEXICAN, "starting_seat"} else None))
            elif seat is None and (named := pair_options(why)):
                seat = pair_entry(exp, fx, rs, space, named)  # and one's own train first
            elif seat is None and why == ONLY_DRAW:
                seat = dry_draw_entry(exp, fx, rs, space)  # a draw from an empty boneyard
            elif seat is None and why == OWN_TABLE:
                seat = own_table_entry(exp, fx, rs, space)  # the fields its table leaves
            elif seat is None and why == OWN_TABLE_AND_SEAT:  # what its table and its
                seat = dealt_own_table_entry(exp, fx, rs, space)  # start both leave
            if seat is None and (named := play_options(why, rs)):
                seat = dealt_play_entry(exp, fx, rs, space, named)  # a deal, its moves aside
            if seat is None and why != ONLY_BLOCKED and (named := named_options(why, rs)):
                seat = blocked_end_entry(exp, fx, rs, space, named)  # all but the end
            if seat is None and (named := named_options(why, rs)):
                # whether its steps are moves alone: a refused one not applicable
                seat = own_steps_entry(exp, fx, rs, space, named)
    if seat is not None:
        return own_choices(seat, fx, rs, space), None
    return None, (reasons[0] if reasons else never_for(fx, rs, verdicts))


READINGS_MAX = 64
"""The most readings of a rule set's own rules `unreached` tries before it keeps the entry."""


def never_for(fx: Fixture, rs: Ruleset, verdicts: Verdicts | None) -> str | None:
    """`unreached`, kept among `verdicts` when given."""
    if verdicts is None:
        return unreached(fx, rs)
    return verdicts.unreached(fx, rs, lambda: unreached(fx, rs))


def unreached(fx: Fixture, rs: Ruleset) -> str | None:
    """Why no round under `rs` has `fx`'s table (traced.never_reached: a condition of
    reachable.SHAPES, docs/fixture-format.md), read with every known value in place of
    each option it plays `other`; None where some reading may have it. Lint leaves such
    rule sets out of the scopes it writes; a rule set of one's own, or one a scope lets
    in all the same, is told here: an answer there is no rule's."""
    if not rs.unknown:
        return never_reached(fx, rs)
    first = None
    for reading in _readings(rs):
        never = never_reached(fx, reading)
        if never is None:
            return None
        first = first or never
    return first


def readings(rs: Ruleset) -> Iterator[Ruleset]:
    """`rs` with each `other` option given each of its known values in turn (_readings):
    the rule sets a rule of one's own may be read as where only known values can say."""
    return _readings(rs)


def _readings(rs: Ruleset) -> Iterator[Ruleset]:
    """`rs` with each `other` option given each of its known values in turn (nothing past
    READINGS_MAX of them)."""
    if not rs.unknown:
        yield rs
        return
    options = catalog().options
    known = [[v for v in options[o].values if v != OTHER] for o in rs.unknown]
    if math.prod(len(k) for k in known) > READINGS_MAX:
        return
    for values in itertools.product(*known):
        given = dict(zip(rs.unknown, values, strict=True))
        yield Ruleset(rs.name, tuple((o, given.get(o, v)) for o, v in rs.choices),
                      rs.hand_table, rs.overlays)


ONLY_ENGINE = "its outcome depends on engine_procedure (played its own way)"
"""`applies`'s answer for an entry that only an engine procedure of one's own decides."""
ONLY_SEAT = "its outcome depends on starting_seat (played its own way)"
"""`applies`'s answer for an entry that only a starting seat of one's own decides."""
