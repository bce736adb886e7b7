"""Traced runs: the reference engine playing one fixture under one rule set, logging each
option it reads, in order (`Log`, through `TracedRuleset` and `TracedRules`).

The engine is deterministic, so the options a run read decide its outcome: every rule set
that answers the run's questions alike plays the fixture identically, and the memo of runs
(runmemo.RunMemo) serves those without playing. The scope check (partition.py) explores
the option space with these runs; situation making and identify read the same logs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtrain.conformance.adapter import (
    JSON,
    Answers,
    DecodedStates,
    ReferenceImplementation,
    Refused,
    RefusedSetup,
    ruleset_json,
)
from mtrain.conformance.expectation_checks import check
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.runmemo import Question, RunMemo, as_flags
from mtrain.conformance.runner import Outcome, in_force, play, setup_problems
from mtrain.reference import codec, engine
from mtrain.reference.refusals import refusal, refusals
from mtrain.reference.rules import EXISTENCE_FLAGS, FLAG_OPTIONS, Rules
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import FixtureError, action_json, max_pip_of, table_starter
from mtrain.spec.ruleset import CUSTOM, Ruleset
from mtrain.spec.scope import (
    KEPT_COMPLETIONS,
    PROBE_TABLE,
    values_of,
)

TableRead = tuple[frozenset[int], frozenset[int], bool]
"""What a run read of the hand table, row by row: the player counts whose hand size it
read, those it asked whether the table lists, and whether it read the list of counts."""


class Log:
    __slots__ = ("asked", "counts", "decides", "effects", "judging", "read", "rows", "sizes",
                 "whole_table")

    def __init__(self) -> None:
        self.read: dict[str, None] = {}  # options, in the order first read
        self.decides: set[str] = set()  # of those, the ones read for more than existence
        self.effects: set[str] = set()
        """Of `decides`, those read for more than whether a step is legal: what a step does,
        what the checks ask. An option in `decides` alone decides only whether the steps are
        moves (step_alone.py: a rule of one's own there refuses a step or plays it alike)."""
        self.judging = False  # while a step's legality is asked (TracedReference.apply)
        self.sizes: set[int] = set()  # player counts whose hand size was read
        self.rows: set[int] = set()  # player counts asked whether the table lists them
        self.counts = False  # the whole list of counts read
        self.whole_table = False
        """hand_sizes read otherwise than row by row (its value, a flag, every option): a
        run that read it so may depend on any row (Run.table_read)."""
        self.asked: dict[Question, None] = {}  # what the run asked the rules, in order

    def add(self, options: Sequence[str], decides: bool = True, rows: bool = False) -> None:
        """Log `options` read; `decides` False for a read that only says whether the
        table exists in the rule set's match (EXISTENCE_FLAGS); `rows` True for a read of
        the hand table row by row (its sizes, rows and counts are logged apart)."""
        for o in options:
            self.read.setdefault(o)
        if not rows and "hand_sizes" in options:
            self.whole_table = True
        if decides:
            self.decides.update(options)
            if not self.judging:
                self.effects.update(options)

    def ask(self, question: Question) -> None:
        """Log `question` asked: while a step's legality is judged, as ("legal", question),
        so that a run replayed from its questions (`_ask_again`) logs it so again."""
        self.asked.setdefault(("legal", question) if self.judging else question)

    def copy_from(self, made: Log) -> None:
        """`made`'s reads and questions (a run served from a memo of plays logs them)."""
        self.read, self.decides, self.effects = (dict(made.read), set(made.decides),
                                                 set(made.effects))
        self.sizes, self.rows, self.counts = set(made.sizes), set(made.rows), made.counts
        self.whole_table = made.whole_table
        self.asked = dict(made.asked)

    def table_read(self) -> TableRead | None:
        """What of the hand table the run read (Run.table_read)."""
        if "hand_sizes" not in self.read or self.whole_table:
            return None
        return frozenset(self.sizes), frozenset(self.rows), self.counts


_RULESET_FIELDS = tuple(f.name for f in dataclasses.fields(Ruleset))
"""Every field of a Ruleset, those its __post_init__ sets included."""
_ruleset_fields = operator.attrgetter(*_RULESET_FIELDS)


class TracedRuleset(Ruleset):
    """A Ruleset that logs each option looked up (the hand table logs hand_sizes)."""

    _log: Log

    @staticmethod
    def wrap(rs: Ruleset, log: Log) -> TracedRuleset:
        # rs's fields taken as they are, its index included (a frozen rule set's, never
        # written): built anew, each of a scope check's 145,000 traced runs indexed its
        # choices again
        t = object.__new__(TracedRuleset)
        # (set in the instance's dict at once: a frozen dataclass's fields are plain
        # attributes there, and object.__setattr__ per field cost more than the copy)
        t.__dict__.update(zip(_RULESET_FIELDS, _ruleset_fields(rs), strict=True), _log=log)
        return t

    def __getitem__(self, option: str) -> str:
        self._log.add((option,))
        self._log.ask(("option", option))
        return super().__getitem__(option)

    def says(self, option: str, value: str) -> bool:
        # the option read as by `rs[option]`; the question asked only whether it is
        # `value`: the other values play alike here, so the memo of runs need not tell them
        self._log.add((option,))
        self._log.ask(("says", (option, value)))
        return super().__getitem__(option) == value

    def pool_says(self, option: str, value: str) -> bool:
        self._log.add((option,), decides=False)  # the deal reads it again where it decides
        self._log.ask(("pool", (option, value)))
        return super().__getitem__(option) == value

    def hand_size(self, players: int) -> int:
        self._log.add(("hand_sizes",), rows=True)
        self._log.sizes.add(players)
        self._log.ask(("size", players))
        return super().hand_size(players)

    @property
    def player_counts(self) -> tuple[int, ...]:
        self._log.add(("hand_sizes",), rows=True)  # which counts it deals: not a size
        self._log.counts = True
        self._log.ask(("counts", 0))
        return super().player_counts

    def deals(self, players: int) -> bool:
        self._log.add(("hand_sizes",), rows=True)
        self._log.rows.add(players)
        self._log.ask(("deals", players))
        return super().deals(players)

    def __iter__(self) -> Iterator[str]:
        self._log.add(tuple(self._index))  # reading them all: every option decides
        self._log.ask(("every", 0))
        return super().__iter__()

    # Asked by the harness (DEAL-7's check) and never an option read of the engine: for
    # the memo of runs (RunMemo) only.
    @property
    def custom_table(self) -> bool:
        self._log.ask(("custom", 0))
        return super().custom_table

    @property
    def unknown(self) -> tuple[str, ...]:
        self._log.ask(("unknown", 0))
        return super().unknown


class TracedRules:
    """Stands in for the engine's Rules and logs the option behind each flag read."""

    def peek(self, name: str) -> Any:
        """The flag `name`, logged as read only to know whether a state is one the rules
        have (an invariant's read, reference_adapter._read_traced), and not kept as an
        attribute: a later read by the engine, which may decide, comes to __getattr__ and
        is logged so. Kept for `peek` alone once logged: a peek logs nothing a peek of the
        same flag has not (the log only grows), and a traced read of a state peeks every
        flag its kept reading read, each time the state is read (conform's traced runs:
        124,000 peeks for 8,900 runs)."""
        peeked = self._peeked
        value = peeked.get(name, peeked)
        if value is not peeked:
            return value
        if name == "ruleset":
            return self._ruleset
        self._log.add(FLAG_OPTIONS[name], False)
        # a question of its own: a run replayed from its questions (_ask_again) peeks
        # again, where asking the flag would log it as deciding
        self._log.ask(("peek", name))
        value = peeked[name] = getattr(self._rules, name)
        return value

    def decide(self, names: Sequence[str]) -> None:
        """Log the options behind flags `peek` read as deciding after all: the state
        they checked is broken under these rules (asked as flags: a replay logs them so)."""
        for name in names:
            if name in FLAG_OPTIONS:
                self._log.add(FLAG_OPTIONS[name])
                self._log.ask(("flag", name))

    def __init__(self, rules: Rules, ruleset: TracedRuleset, log: Log) -> None:
        object.__setattr__(self, "_rules", rules)
        object.__setattr__(self, "_ruleset", ruleset)
        object.__setattr__(self, "_log", log)
        object.__setattr__(self, "_peeked", {})  # flag -> value, once peeked (see peek)

    def __getattr__(self, name: str) -> Any:
        if name == "ruleset":
            return self._ruleset
        log = self._log
        log.add(FLAG_OPTIONS[name], name not in EXISTENCE_FLAGS)
        log.ask(("flag", name))
        value = getattr(self._rules, name)
        if log.judging:
            # not kept: a later read that decides what the step does comes here again
            return value
        # Logged now, in order; reading it again would log nothing new, so later reads
        # find the value itself, without coming here.
        object.__setattr__(self, name, value)
        return value


def legality_reads(st: engine.State, sent: Ruleset, rules: Rules) -> tuple[str, ...]:
    """The options the legal actions of `st` read (under `sent`, whose flags are `rules`),
    in order: what judging whether a step there is a move reads."""
    log = Log()
    probe = st.copy()
    probe.rules = TracedRules(rules, TracedRuleset.wrap(sent, log), log)  # type: ignore[assignment]
    engine.legal_actions(probe)
    return tuple(log.read)


KEPT_RULES = KEPT_COMPLETIONS
"""Rule sets whose flags `_rules_of` keeps: as many as the space keeps points (Space.ruleset),
whose rule sets come back fixture after fixture (with fewer, the memo was emptied every
few fixtures and half the Rules of a cold lint were built again)."""
_kept_rules: dict[int, tuple[Ruleset, Rules, dict[Question, Any]]] = {}


def _kept(rs: Ruleset) -> tuple[Ruleset, Rules, dict[Question, Any]]:
    """The rule set, its flags, and what it answered so far to the questions of traced
    runs (runmemo.answer: a function of the rule set alone), kept by the rule set's
    identity (Space.ruleset hands out one object per point, and the points of one
    fixture's exploration come back in the next ones; hashing a Ruleset's choices cost
    more than the lookup). The rule set is kept in the entry, so that its id is not
    reused while the entry lives."""
    kept = _kept_rules.get(id(rs))
    if kept is not None and kept[0] is rs:
        return kept
    if len(_kept_rules) >= KEPT_RULES:
        _kept_rules.clear()
    kept = _kept_rules[id(rs)] = (rs, Rules.of(rs), {})
    return kept


_WITH_TABLE: dict[tuple[str, tuple[tuple[str, str], ...], tuple[tuple[int, int], ...]],
                  Ruleset] = {}
KEPT_WITH_TABLE = 1024


def with_table(rs: Ruleset, table: tuple[tuple[int, int], ...]) -> Ruleset:
    """`rs` dealing `table`: one object for equal values, so that the traced runs of every
    entry under it share what traced.py keeps by a rule set's identity (its engine flags
    and the answers of its questions), as they do for a point of the space; a new object
    per entry built the flags again for each (773 runs of a hostler conform)."""
    key = (rs.name, rs.choices, table)
    found = _WITH_TABLE.get(key)
    if found is None:
        if len(_WITH_TABLE) >= KEPT_WITH_TABLE:
            _WITH_TABLE.clear()
        found = _WITH_TABLE[key] = Ruleset(rs.name, rs.choices, table)
    return found


def _rules_of(rs: Ruleset) -> Rules:
    """The engine's flags of a rule set, read once: an exploration plays the same rule
    sets over and over (reading them through TracedRules logs each read all the same)."""
    return _kept(rs)[1]


_kept_json: dict[int, tuple[Ruleset, JSON]] = {}


def _json_of(rs: Ruleset) -> JSON:
    """`ruleset_json(rs)`, made once per rule set (kept by identity, as `_kept`): a run
    the memo of runs cannot serve asks it, 93,000 times a cold lint for 44,000 rule
    sets. Never changed by its readers (the harness's requests only read it)."""
    kept = _kept_json.get(id(rs))
    if kept is not None and kept[0] is rs:
        return kept[1]
    if len(_kept_json) >= KEPT_RULES:
        _kept_json.clear()
    kept = _kept_json[id(rs)] = (rs, ruleset_json(rs))
    return kept[1]


def _answers_of(rs: Ruleset, memo: RunMemo | None) -> dict[Question, Any] | None:
    """What `rs` answered so far to the questions of the runs in `memo`'s trees (None
    without a memo)."""
    return None if memo is None else _kept(rs)[2]


_NO_ANSWERS = Answers(0)
"""The memo of answers of a TracedReference: never asked (its rules are a traced view)."""
MEMO_TRACED = 4096
"""States the traced runs keep read (TracedReference)."""


class TracedReference(ReferenceImplementation):
    """The reference engine playing one rule set, whatever a request names, traced."""

    _shared_states = DecodedStates(MEMO_TRACED, traced=True)
    """States read and checked, shared by every traced run (a scope check plays each
    fixture's states under hundreds of rule sets)."""

    def __init__(self, rs: Ruleset) -> None:
        # (not the base's: its memos of rules by request and of answers serve no traced
        # view, which `rules` gives for every request, and a scope check makes a
        # TracedReference per run)
        self._rules, self._seen = {}, {}
        self._answers = _NO_ANSWERS
        self._own_state = type(self).state is not ReferenceImplementation.state
        self._states = self._shared_states
        self.log = Log()
        self.ruleset = TracedRuleset.wrap(rs, self.log)
        self._traced: Any = TracedRules(_rules_of(rs), self.ruleset, self.log)
        self._last: tuple[JSON, engine.State] | None = None

    def rules(self, ruleset: JSON) -> Rules:
        traced: Rules = self._traced
        return traced

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        """refusals.apply in its two parts: whether the step is legal, asked with the log
        judging (what it reads decides only whether the step is a move), then what it
        does. A rule of one's own read in the first alone plays the step the reference's
        way or refuses it (step_alone.py); its effects read no such rule."""
        st = self.state(ruleset, state)
        try:
            act = codec.action_from_json(st, action)
        except codec.StateError as e:  # an action naming no train or no tile of the set
            raise Refused(str(e), e.clause) from None
        log = self.log
        log.judging = True
        try:
            legal = engine.legal_actions(st)
            if act not in legal:
                why = refusal(st, act, legal)
                raise Refused(why.message, why.clause)
        finally:
            log.judging = False
        new = st.copy()
        engine.perform(new, act)
        return codec.state_to_json(new)

    def state(self, ruleset: JSON, state: JSON) -> engine.State:
        # The state last read, when asked again for the same object (a run's checks ask
        # the state it reached once per question): read again, it would log nothing
        # new (its flags were read, and the traced view keeps their values;
        # `_check_players` asks again what it asked), so the log is the same without the
        # text's fingerprint and the memo's lookup.
        last = self._last
        if last is not None and last[0] is state:
            return last[1]
        st = super().state(ruleset, state)
        self._last = (state, st)
        return st


_asked_logs: dict[int, tuple[Sequence[Question], Log, tuple[str, ...]]] = {}
"""What `_ask_again` left in a fresh run's log for a sequence of questions (kept by the
sequence's identity, the sequence kept in the entry so that its id is not reused), and
the flags among them."""
KEPT_ASKED = 1 << 14


def _ask_again(asked: Sequence[Question], impl: TracedReference) -> None:
    """Each question through the traced view, in order: the log a run asking them gets.

    `impl` is a fresh run's (its log empty), and what a question logs depends on the
    question alone (which option, which player count), never on the rule set's answer;
    so the log is made once per sequence and copied into the next run that asks it, its
    flags set on the traced view as reading them would (a played run served from the
    memo of plays asked its questions one by one again: 5 % of a cold lint). Reading the
    whole rule set (`every`) logs the rule set's own options: asked one by one."""
    kept = _asked_logs.get(id(asked))
    log = impl.log
    if kept is not None and kept[0] is asked and not log.asked:
        log.copy_from(kept[1])
        traced = impl._traced
        rules = object.__getattribute__(traced, "_rules")
        for name in kept[2]:
            object.__setattr__(traced, name, getattr(rules, name))
        return
    fresh = not log.asked
    _ask_each(asked, impl)
    if fresh and all(kind != "every" for kind, _ in asked):
        if len(_asked_logs) >= KEPT_ASKED:
            _asked_logs.clear()
        made = Log()
        made.copy_from(log)
        _asked_logs[id(asked)] = (asked, made, tuple(
            arg for kind, arg in asked if kind == "flag" and arg != "ruleset"))


def _ask_each(asked: Sequence[Question], impl: TracedReference) -> None:
    """`_ask_again`, each question through the traced view."""
    traced, rs = impl._traced, impl.ruleset
    for kind, arg in asked:
        if kind == "legal":  # asked judging a step's legality: logged so again
            impl.log.judging = True
            try:
                _ask_each((arg,), impl)
            finally:
                impl.log.judging = False
        elif kind == "flag":
            getattr(traced, arg)
        elif kind == "peek":
            traced.peek(arg)
        elif kind == "option":
            rs[arg]
        elif kind == "says":
            rs.says(*arg)
        elif kind == "pool":
            rs.pool_says(*arg)
        elif kind == "size":
            with contextlib.suppress(ValueError):
                rs.hand_size(arg)
        elif kind == "deals":
            rs.deals(arg)
        elif kind == "counts":
            rs.player_counts  # noqa: B018 (a property read for its log)
        elif kind == "custom":
            rs.custom_table  # noqa: B018
        elif kind == "unknown":
            rs.unknown  # noqa: B018
        else:
            list(rs)


@dataclass(frozen=True)
class Run:
    """One traced play of a fixture: an outcome per entry and the options read."""

    values: dict[str, str]
    outcomes: tuple[str, ...]  # per entry: pass | fail | error
    read: tuple[str, ...]
    messages: tuple[tuple[str, ...], ...] = ()
    unlisted: tuple[tuple[str, ...], ...] = ()
    """Per entry that passes: refusing clauses it leaves out (unlisted_refusals), which
    lint reports inside its scope; the outcome does not count them (identify reads
    outcomes over the whole space)."""
    played: tuple[str, ...] = ()
    """Where the rules never reach the fixture's table (never_reached: every outcome a
    failure saying so, and lint's scopes leave those rule sets out), each entry's outcome
    as the play had it: identify's evidence from the corpus (identify/cells.py)."""
    table_read: TableRead | None = None
    """Where the run read the hand table only row by row (hand_size, deals, player_counts),
    what it read: every table that agrees there plays the fixture alike, and the scope
    check keeps those tables in one region (partition.explore). None where it read no
    table, or read it whole (the option's value, a flag)."""


def traced_run(fx: Fixture, rs: Ruleset, entries: Sequence[Expectation] | None = None,
               point: Mapping[str, str] | None = None, memo: RunMemo | None = None) -> Run:
    """Play `fx` under `rs` with the traced reference and check every entry. `point`: the
    point of the option space `rs` stands for (default: the one it is, `values_of`);
    `memo`: the fixture's runs so far (all of the same entries), one of which may serve.

    Under `custom` (any table of one's own, played with PROBE_TABLE) a run that reads a
    hand size depends on the table: every entry fails there, saying so."""
    entries = fx.expect if entries is None else entries
    values = dict(point) if point is not None else values_of(catalog(), rs)
    _, rules, asked = _kept(rs)  # (one lookup for both: made once per cell)
    answers = None if memo is None else asked
    found = None if memo is None else memo.runs.find(rules, rs, answers)[0]
    run: Run
    if found is not None:
        # the run found, with this point's values: its fields copied as they are (not
        # dataclasses.replace, nor the frozen class's __init__ setting each field: most
        # of a hit's time, and 200,000 hits a lint)
        run = object.__new__(Run)
        run.__dict__.update(found[0].__dict__, values=values)
        sizes = found[1]
    else:
        run, log = logged_run(fx, rs, entries, values, memo)
        sizes = frozenset(log.sizes)
        if memo is not None:
            memo.runs.keep(as_flags(log.asked), rules, rs, (run, sizes), answers)
    probe = values.get("hand_sizes") == CUSTOM and rs.hand_table == PROBE_TABLE
    if probe and sizes:
        said = (f"the outcome reads the hand size for {', '.join(map(str, sorted(sizes)))} "
                "players, which a table of one's own sets: name the rule-set files it holds "
                "for (spec/data/rulesets/) instead of hand_sizes=custom",)
        return Run(values, tuple("fail" for _ in entries), run.read,
                   tuple(said for _ in entries))
    return run


def _play(fx: Fixture, traced: TracedRuleset, impl: TracedReference, rj: JSON,
          resume: tuple[int, JSON] | None = None,
          reached: Callable[[int, JSON], None] | None = None) -> tuple[JSON, JSON] | Outcome:
    try:
        return play(fx, traced, impl, rj, resume=resume, reached=reached)
    except ValueError as e:  # the reference cannot deal or read this table (DEAL-7, ...)
        return Outcome(fx, traced.name, "error", [str(e)])


def logged_run(fx: Fixture, rs: Ruleset, entries: Sequence[Expectation],
                values: dict[str, str], memo: RunMemo | None = None) -> tuple[Run, Log]:
    impl = TracedReference(rs)
    traced = impl.ruleset
    rj = _json_of(rs)
    played: tuple[JSON, JSON] | Outcome
    if memo is None:
        played = _play(fx, traced, impl, rj)
    else:
        _, rules, said = _kept(rs)
        done, node = memo.plays.find(rules, rs, said)
        if (done is not None and isinstance(done[1], Outcome) and done[1].status == "error"
                and done[1].fixture is not fx):
            done = None  # another fixture's error, whose messages may say where it is
        if done is not None:
            _ask_again(done[0], impl)
            played = done[1] if isinstance(done[1], Outcome) else (done[1][0], rj)
        else:
            resume: tuple[int, JSON] | None = None
            cursor: list[Any] = [memo.plays.root, 0]
            if node is not None and node.at is not None:
                resume = node.at[:2]
                _ask_again(node.at[2], impl)
                cursor = [node, len(node.at[2])]

            def reached(k: int, state: JSON) -> None:
                asked = tuple(impl.log.asked)
                here = memo.plays.extend(cursor[0], asked[cursor[1]:], rules, rs, said)
                if here.at is None:
                    here.at = (k, state, asked)
                cursor[:] = [here, len(asked)]

            played = _play(fx, traced, impl, rj, resume, reached)
            asked = tuple(impl.log.asked)
            memo.plays.extend(cursor[0], asked[cursor[1]:], rules, rs,
                              said).found = (asked, played)
    deciding, effects = set(impl.log.decides), set(impl.log.effects)
    never = never_reached(fx, traced)
    if never is None:
        # Where the rule set reaches the table, what the model read to know it (a phase
        # or an open double some values never have: reachable.SHAPES) says only that the
        # table exists, never what happens on it: the existence of a table under rules of
        # one's own is asked of every reading of them (selection.unreached), as a round's
        # under a match length of one's own is left to the implementation (EXISTENCE_FLAGS).
        # tandem's `doubles: other` (a double ends its layer's turn, then binds the next
        # player) had every table with an open double set aside, its duty (DBL-6) included,
        # for this read of REACH-ORDINARY alone.
        impl.log.decides, impl.log.effects = deciding, effects
    run = _judged(played, fx, rs, entries, values, impl, traced)
    if never is not None:  # no answer there is the rules' (reachable.SHAPES): none holds
        run = Run(values, tuple("fail" for _ in entries), run.read,
                  tuple((never,) for _ in entries), played=run.outcomes)
    object.__setattr__(run, "table_read", impl.log.table_read())  # (frozen: set once, here)
    return run, impl.log


def _judged(played: tuple[JSON, JSON] | Outcome, fx: Fixture, rs: Ruleset,
            entries: Sequence[Expectation], values: dict[str, str], impl: TracedReference,
            traced: TracedRuleset) -> Run:
    """Each entry checked against what the play reached (every option the checks read
    logged, where the table is never reached too: `Run.played` depends on them)."""
    if isinstance(played, Outcome) and played.refusal is not None:  # a refused setup
        judged = [setup_problems(exp, played.refusal) for exp in entries]
        return Run(values, tuple("fail" if p else "pass" for p in judged),
                   tuple(impl.log.read), tuple(tuple(p) for p in judged))
    if isinstance(played, Outcome):
        status = played.status
        return Run(values, tuple(status for _ in entries), tuple(impl.log.read),
                   tuple(tuple(played.messages) for _ in entries))
    state, rj = played
    outcomes, messages, unlisted = [], [], []
    for exp in entries:
        left_out: list[str] = []
        try:
            shown = in_force(exp, rs)
            problems = check(shown, rj, state, impl, max_pip_of(traced))
            if not problems:
                left_out = unlisted_refusals(shown, rj, state, impl, max_pip_of(traced))
        except ValueError as e:  # a check the table cannot answer (a bad tile name, ...)
            problems = [str(e)]
        except RefusedSetup as e:  # the table, first read by a check (DEAL-7)
            problems = setup_problems(exp, e)
        outcomes.append("fail" if problems else "pass")
        messages.append(tuple(problems))
        unlisted.append(tuple(left_out))
    return Run(values, tuple(outcomes), tuple(impl.log.read), tuple(messages),
               tuple(unlisted))


UNREACHED = "its table is one these rules never reach"
"""The start of the message of an entry whose table the rule set's rounds never have."""


def never_reached(fx: Fixture, rs: Ruleset) -> str | None:
    """Why no round under `rs` has `fx`'s table, whatever its history: a phase or an open
    double the rules never have (the model's reachable.SHAPES), as `UNREACHED (REACH-...:
    what)`; None where some round may. A traced `rs` logs the one option each reads."""
    if fx.table is None:
        return None
    kept = _shaped.get(id(fx))
    if kept is None or kept[0] is not fx:
        if len(_shaped) > 20000:
            _shaped.clear()
        kept = _shaped[id(fx)] = (fx, {})
    tile_set = rs["tile_set"]  # (read first by fx.start too: the table is built by set)
    shapes = kept[1].get(tile_set)
    if shapes is False:
        return None  # no phase or open double a rule set may lack (a select asks often)
    if shapes is not None and type(rs) is Ruleset:  # a plain rule set: nothing to log
        return shapes.answer(fx, rs) if isinstance(shapes, _Shapes) else None
    from mtrain.spec.model.reachable import shape_problems, shaped
    try:
        table = fx.start(rs)
    except (FixtureError, ValueError, KeyError):
        # a table that does not build: the run says so. It builds by the tile set alone
        # (notation.table_state; the starter never fails by the rule set's)
        kept[1][tile_set] = _UNBUILT
        return None
    if not shaped(table):
        kept[1][tile_set] = False
        return None
    if shapes is None:
        shapes = kept[1][tile_set] = _Shapes(table)
        if type(rs) is Ruleset:
            return shapes.answer(fx, rs)
    found = shape_problems(table, rs)
    return f"{UNREACHED} ({found[0]})" if found else None


class _Shapes:
    """A shaped table's answers to reachable.shape_problems, by the options each reading
    read and their values: `select` asks it of every rule set of a run (dozens), which
    differ in options it never reads. The table is the one the fixture builds under the
    tile set, with the rule set's starter; a plain Ruleset alone is served,
    a traced one reading the model afresh so that its log records what it reads."""

    __slots__ = ("answers", "table")

    def __init__(self, table: dict[str, Any]) -> None:
        self.table = table
        self.answers: list[tuple[int, tuple[str, ...], tuple[str, ...], str | None]] = []

    def answer(self, fx: Fixture, rs: Ruleset) -> str | None:
        from mtrain.spec.model.reachable import shape_problems

        table = self.table
        starter = table["starter"]  # the one thing fx.start builds by more than the set
        if fx.table is not None and "starter" not in fx.table:
            starter = table_starter(fx.table, rs, table["round"], len(table["hands"]),
                                    table["seat"])
        for at, options, values, answer in self.answers:
            if at == starter and tuple(rs[o] for o in options) == values:
                return answer
        read = _ReadOptions(rs)
        found = shape_problems({**table, "starter": starter}, read)
        answer = f"{UNREACHED} ({found[0]})" if found else None
        if read.whole is False:  # each option read by name: the answer holds where they agree
            self.answers.append((starter, tuple(read.read), tuple(read.read.values()), answer))
        return answer


class _ReadOptions(Mapping[str, str]):
    """A rule set read through, keeping each option read by name with its value (`whole`
    once something reads them all: no answer is kept then)."""

    def __init__(self, rs: Ruleset) -> None:
        self._rs = rs
        self.read: dict[str, str] = {}
        self.whole = False

    def __getitem__(self, option: str) -> str:
        value = self.read[option] = self._rs[option]
        return value

    def __iter__(self) -> Iterator[str]:
        self.whole = True
        return iter(self._rs)

    def __len__(self) -> int:
        self.whole = True
        return len(self._rs)

    def __getattr__(self, name: str) -> Any:  # hand_table and the like: all of it read
        self.whole = True
        return getattr(self._rs, name)


_UNBUILT = "unbuilt"
_shaped: dict[int, tuple[Fixture, dict[str, _Shapes | bool | str]]] = {}
"""Whether a fixture's table, by tile set, is one reachable.SHAPES ask about at all (False:
not; _UNBUILT: it does not build; else its answers, _Shapes): kept by the fixture's
identity (the fixture is kept in the entry, so that its id is not reused while the entry
lives)."""


def unlisted_refusals(exp: Expectation, rj: JSON, state: JSON, impl: TracedReference,
                      max_pip: int) -> list[str]:
    """Where an entry's refusal leaves out a clause that also refuses the action: an
    implementation citing that one is right too (docs/protocol.md), so the entry must
    list it. Read through the traced rules, so the clauses found decide the scope."""
    out = []
    for text, listed in exp.refused.items():
        st = impl.state(rj, state)
        try:
            act = codec.action_from_json(st, action_json(text, max_pip))
        except (codec.StateError, FixtureError):
            continue  # not an action on this table: the reference cites TURN-7 alone
        every = [r.clause for r in refusals(st, act)]
        missing = [c for c in every if c not in listed]
        if missing:
            out.append(f"`{text}` is refused by {', '.join(every)} here, the entry lists "
                       f"{', '.join(listed)}: list every clause that refuses it (an "
                       "implementation may cite any)")
    return out
