"""The project's test loop: `pytest -m "not slow"` for every commit, the whole suite for
CI. At the end of a run, the tests over their time budget are listed: a report, never a
failure (how long a test takes depends on the machine). A test's time is the CPU time of
its setup, call and teardown (the process's and that of the children it waited for), so
that a busy machine does not push a test over; its wall time is shown beside it.

`once` computes an expensive value once per run, whichever xdist worker asks first;
`corpus_explored` explores the shipped corpus once per run for the corpus lint and every
identify of the whole corpus; `corpus_blame` plays it against every mutant once per run for
the blame measure and the corpus's kills (and `corpus_play_changes`, what that play changed
in the reference).

FAST_CASES keeps a few cases of a long parametrised family in the fast loop and marks
the others slow (the whole suite runs them all); tests/fast_loop_moved.txt names the test
functions moved out of the fast loop by their cost, each file keeping a test there
(benchmarks/fast_loop_coverage.py measures that the loop still runs every module). At the
end of a run, a fast test as costly as those moved that no list names (nor
tests/fast_loop_kept.txt, the costly ones kept on purpose) is reported, and so is a moved
test the run found cheap (tests/fast_loop_drift.py): the list cannot rot unseen.

The test processes run the garbage collector less often than the interpreter's default
(GC_THRESHOLD): a tenth of a worker's CPU went to collections walking the corpora, tables
and memos the session keeps. Tests about the collector or about memory (which cycles
left for the collector would inflate) are marked `default_gc` and run under the
interpreter's own thresholds, as a user's process does.

The tests keep what mtrain caches (spec/cache.py) in a folder of their own, shared by the
workers and kept from run to run in pytest's cache (`--fresh-cache`: an empty one of the
run's own), never in the user's cache; commands the tests start inherit it.

`--cpu-table=PATH` writes every test's CPU seconds to PATH (and, apart, those of the
processes it started: a command or an engine started per test shows there) and sums
them per file, and says how much CPU no test is charged with: each xdist worker's
imports, collection and end of run, and the controller's own (17 of the fast loop's 138
CPU s by `time` at session 46, where the table summed 121; the pool workers a forkserver
starts are reaped too late to be counted anywhere).
(Write it with `=` when no test path is given: pytest takes a bare PATH
for a test path before it reads this file, and the run stops at "unrecognized
arguments".) `python benchmarks/suite_wall.py PATH` predicts the wall time from it.

Under xdist (`-n`), whole files are handed out, the heaviest first, each to the next
worker free (`pytest_xdist_make_scheduler`): the longest tests start first instead of
last, and a file's module fixtures are set up once (a file of more than SPLIT_SHARE of
a worker's part goes test by test). A file's weight is the CPU its
tests took in the last runs (kept in pytest's cache, `mtrain/cpu-seconds`); a test not
measured yet counts as tests/cpu_weights.json has it (committed, for a clean clone
such as CI's, which has no cache: tests/cpu_weights.py)."""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import pickle
import signal
import sys
from collections import defaultdict
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from procwatch import pids  # noqa: F401  (a fixture, offered to every test)

from mtrain.spec.cache import CACHE_ENV

# A suite started with SIGINT ignored (a shell's `&`) passes the ignore on to every command
# a test starts, and a command started so keeps ignoring SIGINT, on purpose
# (conformance/child.py): the tests that interrupt one with SIGINT need it obeyed.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

if TYPE_CHECKING:
    from shared_runs import SharedRuns

    from mtrain.conformance.fixture import Fixture

# Where the environment forbids bytecode caches (PYTHONDONTWRITEBYTECODE, set on this
# project's machines), every import in every process a test starts compiles the project
# again, and pytest rewrites every test module and, since mtrain is a pytest plugin, every
# mtrain module: a third of the fast loop's CPU. The tests write the caches (__pycache__/,
# ignored by git), for this process and the commands they start.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

DEFAULT_GC = gc.get_threshold()
"""The interpreter's thresholds, as a user's process has them."""
GC_THRESHOLD = (100_000, 50, 100)
"""The test processes' thresholds: a young collection every 100,000 net allocations (700
by default), an older one every 50 of those (10). Measured on the fast loop: 107 -> 99 CPU
s, the same tests passing."""

FAST_BUDGET = 2.0
"""CPU seconds a test of the fast loop may take."""
SLOW_BUDGET = 60.0
"""CPU seconds a test marked slow may take."""

FAST_CASES: dict[str, frozenset[str]] = {
    # family (file::function) -> the cases (parameter ids) the fast loop keeps; the rest
    # are marked slow at collection. Each family runs one long pipeline per case: the
    # whole suite runs every case, the fast loop the family's code on a few. A case left
    # out runs no project line the fast loop's other tests leave unrun (measured with
    # coverage per test: every line, function and module the fast loop ran before, it
    # still runs); the comments say where its code is run.
    # each family on one engine, each engine in one family (18 -> ~5 CPU s)
    "test_house_engines.py::test_under_the_honest_file_nothing_but_the_bugs_fails":
        frozenset({"sixes"}),
    "test_house_engines.py::test_conform_shows_the_planted_bugs": frozenset({"cantina"}),
    "test_house_engines.py::test_fuzz_under_the_honest_file_finds_the_planted_bugs_and_"
    "nothing_else": frozenset({"railyard"}),
    # a fuzz finding and its reproducer (1 of 8): the legal-set and winners findings'
    # code is run by test_house_engines' fuzz and test_fuzz's other tests
    "test_fuzz.py::test_finds_mutant_and_writes_reproducer": frozenset({
        "marker-never-removed-after play: marked"}),
    # three commands in a process each per fault: a file missing, one of the wrong shape,
    # one whose content does not compose (3 of 12; a file not text is read as one of the
    # wrong shape is)
    "test_reliability_files.py::test_a_broken_spec_data_folder_is_one_error": frozenset({
        "missing", "clauses of the wrong shape", "an overlay that does not apply"}),
    # a process: the plain text writer (1 of 4; the JSON writer: test_reliability's and
    # test_conform's runs)
    "test_reliability_runs.py::test_a_full_disk_under_stdout_is_one_line":
        frozenset({"args0"}),
    # two rounds at every player count, every tile tried at every state: double-9 (the
    # others' games in the fast loop are the overlay samples of the same file)
    "test_engine_properties.py::test_variant_every_player_count": frozenset({"puremco-d9"}),
    # every state of random play checked: one table (1 of 7; the others' rules are run
    # by test_fuzz's random play)
    "test_reachable.py::test_every_state_the_engine_reaches_passes":
        frozenset({"puremco"}),
    # a corpus explored again from a spoiled entry: the pieces' own check (1 of 12; an
    # entry cut short or not JSON is spec/cache.py's check, test_cache.py's)
    "test_identify_cells_cache.py::test_a_spoiled_entry_is_explored_again_and_written_again_"
    "whole": frozenset({"an index past the end"}),
    # a run interrupted by SIGTERM (SIGINT: test_process_groups' interrupt with jobs)
    "test_robust_more.py::test_an_interrupted_identify_reports_what_it_measured":
        frozenset({"15-143"}),
    "test_robust_more.py::test_an_interrupted_conform_reports_what_ran":
        frozenset({"15-143"}),
    # SIGINT (SIGTERM: test_robust_more's interrupted runs)
    "test_process_groups.py::test_an_interrupt_with_jobs_leaves_no_process":
        frozenset({"2-130"}),
    # small games against the model under one setting (1 of 2)
    "test_round_effects.py::test_the_engine_agrees_with_the_model_on_small_games":
        frozenset({"False"}),
    # an option read only where its clause applies: a table with an overlay (1 of 3)
    "test_other_reads.py::test_the_reference_reads_an_option_only_where_its_clause_"
    "applies": frozenset({"puremco+passes-end-round"}),
    # mtrain serve through the protocol: one job (1 of 2; jobs: test_process_groups')
    "test_conform.py::test_mtrain_serve_through_the_protocol_passes": frozenset({"1"}),
    # a fault of the implementation mid-run (1 of 5; a hang, a crash, garbage and a
    # closed stdout: test_conform's other tests and test_robust_impls')
    "test_conform.py::test_a_fault_is_reported_and_the_rest_still_runs":
        frozenset({"huge_line"}),
    # a broken pipe under a failing engine (1 of 2)
    "test_reliability.py::test_a_broken_pipe_keeps_the_verdict":
        frozenset({"ForgetsDraw-1"}),
    # a special file in a real process (1 of 3)
    "test_reliability_files.py::test_special_files_in_a_real_process":
        frozenset({"args0"}),
    # a valid list that differs sends documents to jsonschema (1 of 3)
    "test_shipped_situations.py::test_a_spoiled_or_stale_valid_list_only_sends_documents_"
    "to_jsonschema": frozenset({"other digests"}),
    # a stale or spoiled shipped file (4 of 8: missing, moved, flipped, another format;
    # cut, resized, garbage and another code are read by the same checks)
    "test_shipped_situations.py::test_stale_or_spoiled_files_are_never_read":
        frozenset({"missing", "place", "flipped", "format"}),
    # a wrong type the same fault in process and through the protocol (2 of 6)
    "test_robust_alike.py::test_a_wrong_type_is_the_same_fault_on_both_paths": frozenset({
        "refused-value4-apply.refused.clause must be a clause id or null, got 7",
        "winners-value3-answer.winners must be a list of integers, got [true] (true is a "
        "boolean, not an integer)"}),
    # garbage answers charged to the implementation (2 of 9; the decoder's other
    # refusals: test_protocol's and test_conform's)
    "test_robust_inputs.py::test_an_implementation_answering_garbage_is_charged_with_it":
        frozenset({"a NUL after it", "a 5,000-digit number"}),
    # a table fault named at its line (1 of 8; the other faults' checks run in other
    # tests of the fast loop)
    "test_robust_fixtures.py::test_a_table_fault_is_named_at_its_line": frozenset({
        "[5-3, 9-1]\\n      3: [1-1]-[12-5]-6-hands must list seats 0..2, got [0, 1, 3]"}),
    # random play against the engine: 3 of 11 rule sets, on both tile sets (the others'
    # options are run by the corpus, test_fixtures)
    "test_legality.py::test_agrees_with_engine_on_random_play": frozenset({
        "pagat", "pagat+single-tile-start+starter-opens-mexican",
        "puremco-d9+own-train-first+draw-until-playable"}),
    "test_legal_sets.py::test_engine_equals_the_model_on_random_games":
        frozenset({"pagat"}),
    "test_legal_sets.py::test_a_mutated_end_2_fails_the_check_naming_it":
        frozenset({"_too_late"}),
    # fuzz checks its output before the run: a folder it cannot write (1 of 2)
    "test_reliability_runs.py::test_fuzz_checks_out_before_the_run":
        frozenset({"unwritable"}),
    # serve imports no z3: one command line (1 of 2)
    "test_command_line.py::test_serve_imports_no_z3": frozenset({"args0"}),
}


MOVED_FILE = Path(__file__).with_name("fast_loop_moved.txt")
"""The test functions moved out of the fast loop into the whole suite only, by cost."""


def read_moved(path: Path = MOVED_FILE) -> dict[str, int]:
    """The functions MOVED_FILE names (`FILE::FUNCTION`, a `#` comment after), each with
    its line; a line of another shape is a usage error naming it."""
    moved: dict[str, int] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        name = line.split("#", 1)[0].strip()
        if not name:
            continue
        file, _, function = name.partition("::")
        if not (file.endswith(".py") and function.isidentifier()) or name in moved:
            raise pytest.UsageError(
                f"{path}:{number}: expected FILE.py::FUNCTION once, got {name!r}")
        moved[name] = number
    return moved


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    moved = read_moved()
    seen: defaultdict[str, set[str]] = defaultdict(set)
    for item in items:
        if f"{item.path.name}::{getattr(item, 'originalname', item.name)}" in moved:
            item.add_marker(pytest.mark.slow)
        callspec = getattr(item, "callspec", None)
        if callspec is None:
            continue
        family = f"{item.path.name}::{getattr(item, 'originalname', item.name)}"
        fast = FAST_CASES.get(family)
        if fast is None:
            continue
        seen[family].add(callspec.id)
        if callspec.id not in fast:
            item.add_marker(pytest.mark.slow)
    for family, ids in seen.items():  # a whole family collected: every fast case is in it
        if len(ids) > len(FAST_CASES[family]) and not FAST_CASES[family] <= ids:
            raise pytest.UsageError(
                f"tests/conftest.py FAST_CASES names cases {family} does not have: "
                f"{sorted(FAST_CASES[family] - ids)} (it has {sorted(ids)})")


_cpu: defaultdict[str, float] = defaultdict(float)
_children: defaultdict[str, float] = defaultdict(float)
_wall: defaultdict[str, float] = defaultdict(float)
_slow: set[str] = set()


def _cpu_now() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _children_now() -> float:
    """The CPU of the processes this one started and waited for (commands, engines)."""
    t = os.times()
    return t.children_user + t.children_system


@pytest.fixture(scope="session")
def once(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, Callable[[], Any]], Any]:
    """`once(name, compute)`: compute's value, computed once per run. Under xdist the first
    worker to ask computes it (under a lock) and pickles it into the run's shared temporary
    folder; the others read it there. A value must pickle; it is read back only from that
    folder, which this run wrote."""
    root = _run_root(tmp_path_factory)
    memo: dict[str, Any] = {}

    def get(name: str, compute: Callable[[], Any]) -> Any:
        if name not in memo:
            if not _CAN_LOCK:  # no flock (Windows): each worker computes its own
                memo[name] = compute()
                return memo[name]
            path = root / f"once-{name}.pickle"
            with _locked(root / f"once-{name}.lock"):
                if path.is_file():
                    memo[name] = pickle.loads(path.read_bytes())
                else:
                    memo[name] = compute()
                    path.write_bytes(pickle.dumps(memo[name]))
        return memo[name]

    return get


@pytest.fixture(scope="session")
def shared_runs(once: Callable[[str, Callable[[], Any]], Any],
                tmp_path_factory: pytest.TempPathFactory) -> SharedRuns:
    """conform and fuzz runs several tests ask alike, run once per run (shared_runs.py)."""
    from shared_runs import SharedRuns

    return SharedRuns(once, _run_root(tmp_path_factory))


def _run_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's temporary folder, shared by the xdist workers."""
    base = tmp_path_factory.getbasetemp()
    return base if os.environ.get("PYTEST_XDIST_WORKER") is None else base.parent


try:
    import fcntl
    _CAN_LOCK = True
except ImportError:  # Windows
    _CAN_LOCK = False


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Held by one process of the run at a time (where flock exists)."""
    with open(path, "a") as lock:
        if _CAN_LOCK:
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


CORPUS_PARTS = 2
"""The corpus is explored in this many parts (every PARTS-th fixture), each by whichever
worker asks for it first: two workers explore it side by side rather than one exploring
while the other waits at the lock (about 70 s of wall time)."""


@pytest.fixture(scope="session")
def _corpus_explored_once(once: Callable[[str, Callable[[], Any]], Any],
                          tmp_path_factory: pytest.TempPathFactory) -> CorpusEntries:
    """The shipped corpus's scope check (`mtrain lint`'s), run once per run: it explores
    every fixture's partition of the option space (about 70 CPU s cold; 105 -> 2.7 CPU s
    for the lint's test alone warm, session 51: a fixture the kept cache holds is not
    explored again) and keeps what it finds in the tests' cache (_cache_of_this_run
    below): each fixture's check, which the corpus lint then reads, and the pieces
    identify reads (conformance/identify/cells.py).
    The corpus is explored once, not once by the lint and again by the first identify of
    each worker; in CORPUS_PARTS parts, a worker starting with a part of its own (by its
    number) and then taking or reading the others."""
    entries = CorpusEntries(_run_root(tmp_path_factory) / "corpus-explored-save.lock")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    first = int(worker[2:]) if worker[2:].isdigit() else 0
    for k in range(CORPUS_PARTS):
        part = (first + k) % CORPUS_PARTS
        once(f"corpus-explored-{part}-of-{CORPUS_PARTS}",
             functools.partial(entries.explore, part))
    return entries


@pytest.fixture
def corpus_explored(_corpus_explored_once: CorpusEntries) -> None:
    """The corpus explored once per run (_corpus_explored_once), and its two entries still
    in the cache as the test starts (CorpusEntries.restore): the cache keeps a few entries
    of each kind, and the tests that identify under rule-set files of their own each write
    identify's pieces under a name of their own, which pushed the corpus's out (session 57
    at CI: the next identify of the corpus in a new process explored it all again, 190
    CPU s in test_reliability_runs). Since session 58 the cache removes the entries used
    least recently, within a count and a budget in bytes (cells.KEPT_ENTRIES), which keeps
    the corpus's; kept as a guard all the same (two file looks): a process that identifies
    the corpus again from what it decoded before does not read the entry, so a run that
    writes more entries of its own than the count still pushes it out."""
    _corpus_explored_once.restore()


class CorpusEntries:
    """The shipped corpus's scope checks and identify's pieces in the run's cache: its
    `explore` makes a part of them, `restore` puts back the whole when the cache pruned
    either entry (cache.prune: the least recently used go)."""

    def __init__(self, lock: Path, corpus: Callable[[], Sequence[Fixture]] | None = None
                 ) -> None:
        self.lock = lock
        self._fixtures = corpus or _shipped_corpus
        # named once, as the run starts: a test's rule-set files name other entries
        self.names = corpus_entry_names()

    def explore(self, part: int) -> bool:
        explore_corpus_part(self._fixtures(), part, CORPUS_PARTS, self.lock)
        return True

    def restore(self) -> int:
        """How many parts were made again (0: both entries are there, two file looks)."""
        from mtrain.spec import cache

        base = cache.folder()
        if base is None or all((base / name).is_file() for name in self.names):
            return 0
        fixtures = self._fixtures()
        for part in range(CORPUS_PARTS):  # what the cache still holds is not made again
            explore_corpus_part(fixtures, part, CORPUS_PARTS, self.lock)
        return CORPUS_PARTS


def _shipped_corpus() -> list[Fixture]:
    from mtrain.conformance.fixture import load_corpus

    fixtures, errors = load_corpus()
    assert not errors, errors[:1]
    return list(fixtures)


def corpus_entry_names() -> tuple[str, str]:
    """The corpus's two entries in the cache, each as KIND/NAME."""
    from mtrain.conformance.identify import cells
    from mtrain.conformance.lint.scopes import ScopeCache
    from mtrain.spec.scope import Space

    space = Space()
    return (f"{ScopeCache.KIND}/{ScopeCache.entry_name(space)}",
            f"{cells.KIND}/{cells._entry_name(space)}")


def explore_corpus_part(fixtures: Sequence[Fixture], part: int, parts: int, lock: Path
                        ) -> int:
    """Every `parts`-th fixture from `part` on explored as the corpus lint's scope check
    explores it, its check and identify's pieces kept in the cache (corpus_explored),
    but for those whose check and pieces the cache holds already, each found by the
    fixture's content and the code's: the lint and identify read those there as they
    read the ones explored now; and for those the package ships both of, current
    (shipped_explorations), copied into the cache as a user's first run reads them. How
    many it explored."""
    import gc

    from mtrain.conformance.gc_freeze import paused, settled
    from mtrain.conformance.identify import cells
    from mtrain.conformance.lint.scopes import ScopeCache, fixture_digest, scope_fixture
    from mtrain.spec import cache
    from mtrain.spec.scope import Space

    space = Space()
    keeper = cells.Keeper(space)
    held = set(ScopeCache(space).entries)
    with paused():
        pieces = cache.read(cells.KIND, cells._entry_name(space))
    held &= set(pieces) if isinstance(pieces, dict) else set()
    del pieces
    ship_scopes, ship_pieces = shipped_explorations(space)
    found = []
    taken: list[str] = []
    with settled(), paused():  # as check_scopes explores (lint/scopes.py)
        for fx in fixtures[part::parts]:
            key = fixture_digest(fx)
            if key in held:
                continue
            if key in ship_scopes and key in ship_pieces:
                taken.append(key)
                continue
            found.append((fx, scope_fixture(fx, space, keeper.add)))
            gc.freeze()
    # each kind of entry is read, merged and written whole: one part at a time
    with _locked(lock):
        store = ScopeCache(space)
        for fx, scopes in found:
            store.put(fx, scopes)
        store.used.update((key, ship_scopes[key]) for key in taken)
        store.changed |= bool(taken)
        store.save()
        keeper.save()
        if taken:
            added = {key: ship_pieces[key] for key in taken}
            with paused():
                cache.update(cells.KIND, cells._entry_name(space),
                             lambda now: {**now, **added}, keep=cells.KEPT_ENTRIES,
                             budget=cells.KEPT_BYTES)
    return len(found)


def shipped_explorations(space: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The lint's scope checks and identify's pieces the package ships, by fixture digest,
    each only when its entry's name is the one this code and data give (else {}): the
    exploration of the corpus a clean run would repeat (about 200 CPU s of a full run).
    Read here whatever MTRAIN_SHIPPED_SCOPES and MTRAIN_SHIPPED_PIECES say (the run keeps
    them off for the tests of the exploration); tests/test_shipped_scopes.py explores a
    sample of the corpus afresh and compares it with them, and CI's `mtrain situations
    --shipped --check` fails while they are stale. MTRAIN_TESTS_EXPLORE=1 explores the
    whole corpus anyway."""
    from mtrain.conformance import shipped
    from mtrain.conformance.identify import cells
    from mtrain.conformance.identify.shipped_pieces import PIECES
    from mtrain.conformance.lint.scopes import ScopeCache
    from mtrain.conformance.lint.shipped_scopes import SCOPES

    where = shipped.folder()
    if where is None or os.environ.get("MTRAIN_TESTS_EXPLORE", "") not in ("", "0"):
        return {}, {}
    out = []
    for kind, name in ((SCOPES, ScopeCache.entry_name(space)),
                       (PIECES, cells._entry_name(space))):
        found = kind.read_files(where)
        out.append(found[1] if found is not None and found[0] == name else {})
    return out[0], out[1]


BLAME_PARTS = 2
"""The mutants are played against the corpus in this many parts (every PARTS-th mutant),
as CORPUS_PARTS: two workers that ask at once play one part each."""


def _corpus_play(once: Callable[[str, Callable[[], Any]], Any]) -> dict[int, Any]:
    """Each part's play of the mutants against the corpus: its blame, and what it changed
    in the reference (reference_left_alone.py), seen in the process that played it."""

    def play(part: int) -> tuple[list[Any], list[str]]:
        from reference_left_alone import changes, module_snapshot, reference_trace

        from mtrain.conformance.fixture import load_corpus
        from mtrain.conformance.mutants import MUTANTS
        from mtrain.conformance.mutants.blame import blame

        fixtures, errors = load_corpus()
        assert not errors, errors[:1]
        before = module_snapshot(), reference_trace()
        found = blame(fixtures, list(MUTANTS)[part::BLAME_PARTS])
        return found, changes(before)

    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    first = int(worker[2:]) if worker[2:].isdigit() else 0
    parts = {}
    for k in range(BLAME_PARTS):
        part = (first + k) % BLAME_PARTS
        parts[part] = once(f"corpus-blame-{part}-of-{BLAME_PARTS}",
                           functools.partial(play, part))
    return parts


@pytest.fixture(scope="session")
def corpus_blame(once: Callable[[str, Callable[[], Any]], Any]) -> list[Any]:
    """Every mutant played against the shipped corpus, once per run (`blame`: every
    reachable run to its end; about 115 CPU s for 886 mutants in session 62, both parts
    in one process, of which the corpus's traced reference runs, `passing_runs`, 2.4 a
    part): the clauses its failures are charged to
    (tests/test_blame.py) and the fixtures that kill it (tests/test_mutants.py's CI gate)
    come from one play rather than two."""
    from mtrain.conformance.mutants import MUTANTS

    found = {b.mutant: b for blames, _ in _corpus_play(once).values() for b in blames}
    return [found[name] for name in MUTANTS]  # the catalogue's order


@pytest.fixture(scope="session")
def corpus_play_changes(once: Callable[[str, Callable[[], Any]], Any]) -> list[str]:
    """What that play changed in the reference (tests/test_mutants.py: nothing)."""
    return [c for _, changed in _corpus_play(once).values() for c in changed]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--budget", type=float, default=None, metavar="SECONDS",
                     help=f"report tests over SECONDS of CPU (default {FAST_BUDGET:g}, "
                     f"{SLOW_BUDGET:g} for those marked slow)")
    parser.addoption("--fresh-cache", action="store_true", default=False,
                     help="start from an empty mtrain cache of the run's own, not the one "
                     "the tests keep from run to run in pytest's cache (CI's clean clone "
                     "starts empty anyway)")
    parser.addoption("--cpu-table", default=None, metavar="PATH",
                     help="write every test's CPU and wall seconds to PATH (tab-separated: "
                     "cpu, wall, slow, node id, the CPU of the processes it started; PATH.partial "
                     "as each test ends) and list "
                     "the CPU per test file at the end")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item,
                              call: pytest.CallInfo[None]) -> Generator[None, object, object]:
    report = yield
    assert isinstance(report, pytest.TestReport)
    started = item.stash.get(_STARTED, None)
    if started is not None:
        report.user_properties.append(("cpu_seconds", _cpu_now() - started))
        report.user_properties.append(
            ("children_cpu_seconds", _children_now() - item.stash[_CHILDREN]))
    item.stash[_STARTED] = _cpu_now()  # the next phase starts now
    item.stash[_CHILDREN] = _children_now()
    return report


_STARTED = pytest.StashKey[float]()
_CHILDREN = pytest.StashKey[float]()


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Hypothesis's pytest plugin wraps a parametrised @given test's settings in a new
    settings object on every invocation, on the one function all the cases share, so the
    chain of parents grows by one per case; past about 950 cases in one process (the
    overlay pairs of test_engine_properties.py) reading a setting overflows the stack.
    The settings the function had are put back after each case."""
    obj: Any = getattr(item, "obj", None)
    fn: Any = getattr(obj, "__func__", obj)
    saved = getattr(fn, "_hypothesis_internal_use_settings", None)
    try:
        yield
    finally:
        if saved is not None:
            fn._hypothesis_internal_use_settings = saved


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    item.stash[_STARTED] = _cpu_now()
    item.stash[_CHILDREN] = _children_now()


_table: list[str] = []
"""The --cpu-table path, when given (pytest_configure)."""
_outside: dict[str, float] = {}
"""Under xdist, each worker's CPU seconds charged to no test (pytest_testnodedown)."""
OUTSIDE_KEY = "mtrain_cpu_outside_tests"
"""A worker's CPU outside its tests, as it hands it to the controller (workeroutput)."""


def _own_cpu(workers: bool = False) -> float:
    """This process's CPU so far and that of the children it waited for (the commands
    and engines its tests started; a forkserver's workers only once it is reaped); with
    `workers` (xdist's controller, whose children are the workers, counted apart) its own
    alone."""
    if workers:
        t = os.times()
        return t.user + t.system
    return _cpu_now()


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's, in the controller
def pytest_testnodedown(node: Any, error: object) -> None:
    outside = getattr(node, "workeroutput", {}).get(OUTSIDE_KEY)
    if isinstance(outside, float):
        _outside[str(node.gateway.id)] = outside


def pytest_configure(config: pytest.Config) -> None:
    gc.set_threshold(*GC_THRESHOLD)
    table = config.getoption("cpu_table", None)
    if table is not None and os.environ.get("PYTEST_XDIST_WORKER") is None:
        _table[:] = [table]
        with open(f"{table}.partial", "w", encoding="utf-8"):
            pass


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _wall[report.nodeid] += report.duration
    _cpu[report.nodeid] += sum(v for k, v in report.user_properties
                               if k == "cpu_seconds" and isinstance(v, float))
    _children[report.nodeid] += sum(v for k, v in report.user_properties
                                    if k == "children_cpu_seconds" and isinstance(v, float))
    if "slow" in report.keywords:
        _slow.add(report.nodeid)
    if _table and report.when == "teardown":  # each test as it ends: a long run's progress
        with open(f"{_table[0]}.partial", "a", encoding="utf-8") as out:
            out.write(f"{_cpu[report.nodeid]:.3f}\t{_wall[report.nodeid]:.3f}\t"
                      f"{int(report.nodeid in _slow)}\t{report.nodeid}\t"
                      f"{_children[report.nodeid]:.3f}\n")


def _cpu_table(terminalreporter: pytest.TerminalReporter, path: str) -> None:
    """Where the CPU goes: every test to `path`, the files summed on the terminal. A
    module- or session-scoped fixture is charged to the first test that asks for it."""
    rows = sorted(((cpu, _wall[nodeid], nodeid) for nodeid, cpu in _cpu.items()),
                  reverse=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write("cpu_s\twall_s\tslow\tnodeid\tchildren_cpu_s\n")
        for cpu, wall, nodeid in rows:
            out.write(f"{cpu:.3f}\t{wall:.3f}\t{int(nodeid in _slow)}\t{nodeid}\t"
                      f"{_children[nodeid]:.3f}\n")
    files: defaultdict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for cpu, _, nodeid in rows:
        files[nodeid.split("::")[0]][0] += cpu
        files[nodeid.split("::")[0]][1] += 1
    terminalreporter.section("CPU seconds per test file")
    total = sum(cpu for cpu, _ in files.values())
    for name, (cpu, count) in sorted(files.items(), key=lambda kv: -kv[1][0]):
        terminalreporter.write_line(f"{cpu:8.2f} s {int(count):5d} tests  {name}")
    terminalreporter.write_line(f"{total:8.2f} s {len(rows):5d} tests  in all "
                                f"(load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    # what no test is charged with: each worker's imports, collection and end of run,
    # and this process's own (under xdist, the reports of every test)
    workers = sorted(_outside.items())
    here = _own_cpu(workers=True) if workers else _own_cpu() - total
    shown = ", ".join(f"{name} {cpu:.2f}" for name, cpu in workers)
    terminalreporter.write_line(
        f"{sum(cpu for _, cpu in workers) + here:8.2f} s outside the tests ("
        + (f"workers: {shown}; " if workers else "") + f"this process {here:.2f})")


def _costliest(terminalreporter: pytest.TerminalReporter) -> None:
    """Where the run's CPU went, in a few lines of every run's log (a CI log then says
    which files and tests grew; the tests over budget alone did not): the costliest tests'
    and files' CPU seconds, a session fixture's charged to the test that first asked."""
    from cpu_weights import COSTLIEST, COSTLIEST_TESTS, costliest_files, costliest_tests

    terminalreporter.section(f"CPU seconds of the {COSTLIEST_TESTS} costliest tests")
    for line in costliest_tests(_cpu, _wall):
        terminalreporter.write_line(line)
    terminalreporter.section(f"CPU seconds of the {COSTLIEST} costliest test files")
    for name, cpu, count in costliest_files(_cpu):
        terminalreporter.write_line(f"{cpu:8.2f} s {count:5d} tests  {name}")
    # the load: this machine's CPU seconds grow by half again from load 2 to 10
    # (docs/performance.md, session 49), so a figure is read beside it
    terminalreporter.write_line(
        f"{sum(_cpu.values()):8.2f} s {len(_cpu):5d} tests  in all (load average at the end "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; --cpu-table=PATH lists all)")


def _list_drift(terminalreporter: pytest.TerminalReporter) -> None:
    """Whether tests/fast_loop_moved.txt still fits the run's CPU seconds (a report: a
    costly fast test in no list, a moved test now cheap; tests/fast_loop_drift.py)."""
    from fast_loop_drift import KEPT_FILE, drift, report_lines

    if not _cpu:
        return
    lines = report_lines(drift(_cpu, _slow, read_moved(), read_moved(KEPT_FILE),
                               FAST_CASES))
    if lines:
        terminalreporter.section("the fast loop's lists against this run (CPU seconds)")
        for line in lines:
            terminalreporter.write_line(line)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter,
                            config: pytest.Config) -> None:
    table = config.getoption("cpu_table")
    if table is not None:
        _cpu_table(terminalreporter, table)  # every file, and every test to the table
    elif _cpu:
        _costliest(terminalreporter)
    _list_drift(terminalreporter)
    asked = config.getoption("budget")
    over = []
    for nodeid, cpu in _cpu.items():
        budget = asked if asked is not None else (
            SLOW_BUDGET if nodeid in _slow else FAST_BUDGET)
        if cpu > budget:
            over.append((cpu, budget, nodeid))
    if not over:
        return
    terminalreporter.section("over the time budget (CPU seconds)")
    for cpu, budget, nodeid in sorted(over, reverse=True):
        mark = ", slow" if nodeid in _slow else ""
        terminalreporter.write_line(f"{cpu:7.2f} s > {budget:g} s  {nodeid} "
                                    f"(wall {_wall[nodeid]:.2f} s{mark})")



CPU_CACHE_KEY = "mtrain/cpu-seconds"
"""pytest's cache entry: each test's CPU seconds, as the last run that ran it measured."""
SPLIT_SHARE = 0.5
"""A file heavier than this share of a worker's part of the run is handed out test by
test (none in the whole suite nor the fast loop; a run of one or two files, all)."""


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`-n N` (xdist's `--dist load`): whole files, the heaviest first, each to the next
    worker free; a file heavier than a share of the run (SPLIT_SHARE of a worker's part)
    test by test, so that it does not run alone at the end. xdist's own load scheduler
    hands out chunks of consecutive tests in the files' order: the longest tests could
    start last, and a module fixture was set up on each worker its file was split to.
    Another `--dist` is left to xdist."""
    if config.getoption("dist") != "load":
        return None
    from cpu_weights import UNMEASURED, estimates, load
    from xdist.scheduler import LoadScopeScheduling

    cache = getattr(config, "cache", None)
    measured: dict[str, float] = cache.get(CPU_CACHE_KEY, {}) if cache is not None else {}
    seconds: dict[str, float] = {}  # every collected test's, once the collection is known

    def cost(nodeids: Iterable[str]) -> float:
        return sum(seconds.get(nodeid, UNMEASURED) for nodeid in nodeids)

    class HeaviestFirst(LoadScopeScheduling):  # type: ignore[misc]  # (xdist: untyped)
        split: frozenset[str] | None = None  # the files handed out test by test

        def _split_scope(self, nodeid: str) -> str:
            if self.split is None:
                collection = next(iter(self.registered_collections.values()))
                # the cache's figures, else the committed ones (tests/cpu_weights.py): a
                # clean clone has no cache
                seconds.update(estimates(collection, measured, load()))
                files: defaultdict[str, list[str]] = defaultdict(list)
                for n in collection:
                    files[n.split("::", 1)[0]].append(n)
                share = cost(n for ns in files.values() for n in ns) / self.numnodes
                self.split = frozenset(f for f, ns in files.items()
                                       if cost(ns) > SPLIT_SHARE * share)
            file = nodeid.split("::", 1)[0]
            return nodeid if file in self.split else file

        queued = -1  # the units queued after the last assignment

        def _assign_work_unit(self, node: Any) -> None:
            # The queue is sorted when units joined it since the last assignment (all of
            # them at the start; a crashed worker's put back): heaviest first, ties in the
            # files' order. A unit's cost never changes, and finding the heaviest at each
            # assignment cost the square of the units (a file of 3,000 tests handed out
            # test by test: 10 CPU s in the controller).
            if len(self.workqueue) != self.queued:
                units = sorted(self.workqueue.items(), key=lambda unit: -cost(unit[1]))
                self.workqueue.clear()
                self.workqueue.update(units)
            super()._assign_work_unit(node)
            self.queued = len(self.workqueue)

        def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
            # xdist's own, but a unit whose tests have all run leaves the node's assigned
            # work: after each test xdist counts the node's pending tests over every unit
            # it was given, done or not (the square of the tests when a file goes test by
            # test). Only pending tests are ever read there (to hand out more, to end,
            # to put a crashed worker's back).
            nodeid = self.registered_collections[node][item_index]
            scope = self._split_scope(nodeid)
            unit = self.assigned_work[node][scope]
            unit[nodeid] = True
            if False not in unit.values():
                del self.assigned_work[node][scope]
            self._reschedule(node)

    return HeaviestFirst(config, log)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Each test's CPU seconds into pytest's cache, for the next run's scheduler. First,
    one full collection and the heap frozen (_collect_and_freeze)."""
    _collect_and_freeze()
    output = getattr(session.config, "workeroutput", None)  # an xdist worker's, to hand back
    if output is not None:
        output[OUTSIDE_KEY] = _own_cpu() - sum(_cpu.values())
    cache = getattr(session.config, "cache", None)
    if cache is None or not _cpu or os.environ.get("PYTEST_XDIST_WORKER") is not None:
        return
    seconds = cache.get(CPU_CACHE_KEY, {})
    seconds.update((nodeid, round(cpu, 3)) for nodeid, cpu in _cpu.items())
    cache.set(CPU_CACHE_KEY, seconds)


def _collect_and_freeze() -> None:
    """After the last test, pytest collects the whole heap twice (its unraisable-exception
    check: every cycle freed, each finaliser's exception reported) and the interpreter
    once more as it exits: three walks over every corpus, table and memo the run kept
    (1.4 CPU s for the first two in a process that ran a sixth of the fast loop). One
    collection here frees every cycle with its finaliser under pytest's hook, as its own
    first would; frozen after it, what is left alive is out of the later walks' sight,
    which find only what was made since."""
    gc.collect()
    gc.freeze()


KEPT_CACHE = "mtrain-cache"
"""The folder, in pytest's cache (.pytest_cache/d/), where the tests keep what mtrain
caches from one run to the next (_cache_of_this_run)."""


def _tests_cache(config: pytest.Config, run_root: Path) -> Path:
    """The mtrain cache the run's tests share: kept in pytest's cache from one run to the
    next, or a new empty folder of the run's own under `--fresh-cache`, `--cache-clear`
    (which empties pytest's cache first anyway), without pytest's cache plugin, or where
    its folder cannot be written."""
    cache = getattr(config, "cache", None)
    if cache is not None and not config.getoption("fresh_cache"):
        try:
            return Path(cache.mkdir(KEPT_CACHE))
        except OSError:  # pytest's cache cannot be written (pytest warns): the run's own
            pass
    (run_root / KEPT_CACHE).mkdir(exist_ok=True)
    return run_root / KEPT_CACHE


@pytest.fixture(autouse=True, scope="session")
def _cache_of_this_run(request: pytest.FixtureRequest,
                       tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """One cache for the whole run, shared by the xdist workers (spec/cache.py writes
    each entry whole, by renaming): what one worker explored (a corpus's scope
    partition, a rule set's situations) the others read instead of exploring again.
    It is kept from run to run (_tests_cache): an entry is found by a digest of all its
    value depends on (its input, the source of the code that computes it, the spec data,
    the versions: spec/cache.py), so one an edit made stale is never read, and a test
    gets the same value from it warm as computed cold (tests/test_loop_s51.py). A test
    whose point is the cold path sets a cache folder of its own (test_cache.py and
    others). Never the user's cache: MTRAIN_CACHE_DIR is set for the run."""
    saved = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(_tests_cache(request.config, _run_root(tmp_path_factory)))
    yield
    if saved is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = saved


@pytest.fixture(autouse=True, scope="session")
def _no_shipped_explorations() -> Iterator[None]:
    """identify's pieces and the lint's scope checks shipped with the package
    (conformance/identify/shipped_pieces.py, conformance/lint/shipped_scopes.py) are never
    read by the code under test in the run, nor by the commands it starts: a test of the
    exploration (identify's cells tests, test_cache's, the lint's) or of a command with a
    cold cache explores, whatever the package ships. A test of a user's first identify or
    lint sets its switch on again, with files of its own (test_shipped_pieces.py,
    test_shipped_scopes.py).

    The run itself reads them, when current, for the shipped corpus's exploration it
    shares between the corpus lint and identify (corpus_explored, shipped_explorations):
    that exploration is what the package's files already hold, and a test compares a
    sample of it explored afresh with them."""
    from mtrain.conformance.identify.shipped_pieces import PIECES_ENV
    from mtrain.conformance.lint.shipped_scopes import SCOPES_ENV

    saved = {env: os.environ.get(env) for env in (PIECES_ENV, SCOPES_ENV)}
    os.environ.update({env: "off" for env in saved})
    yield
    for env, value in saved.items():
        if value is None:
            os.environ.pop(env, None)
        else:
            os.environ[env] = value


@pytest.fixture(autouse=True)
def _collector(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test marked `default_gc` runs under the interpreter's own thresholds."""
    if request.node.get_closest_marker("default_gc") is None:
        yield
        return
    gc.set_threshold(*DEFAULT_GC)
    try:
        yield
    finally:
        gc.set_threshold(*GC_THRESHOLD)


@pytest.fixture(autouse=True)
def _no_examples_left_behind() -> Iterator[None]:
    """The rule-set files a test's fixtures name (`rules:`) join the process's catalogue
    as examples (Catalog.add_example); each test starts from the shipped ones."""
    yield
    from mtrain.spec.catalog import catalog

    catalog().forget_added_examples()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    """What a test's own subprocess left this run to adopt (a harness killed outright:
    its reapers and watchdog) reaped as the test ends, as a harness reaps it as an engine
    starts or ends: tests that start no engine after it piled up some 30 zombies."""
    from mtrain.conformance import child

    child.reap_adopted()
