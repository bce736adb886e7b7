"""Which entries the cache keeps (spec/cache.py, issue 25): those used least recently go
first, a read counting as a use, and a kind may cap its bytes too. Before, the least
recently *written* went: the corpus's pieces (about 30 MB, written once and read by every
identify of the corpus) went after four small entries of one's own rule-set files, and the
next identify of the corpus explored it all again (150 to 250 CPU s)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from mtrain.conformance.identify import cells
from mtrain.conformance.lint import scopes
from mtrain.spec import cache

KIND = "pieces-test"
HOUR_AGO = time.time() - 3600


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache of the test's own; the folder of KIND's entries."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache" / KIND


def written(name: str, value: object, at: float, keep: int = 4,
            budget: int | None = None, kind: str = KIND) -> None:
    """`value` kept under `name`, as written `at` (seconds): the order of writes is set
    by hand, the file system's clock being too coarse for writes a moment apart."""
    cache.write(kind, name, value, keep=keep, budget=budget)
    os.utime(Path(str(cache.folder())) / kind / name, (at, at))


def names(folder: Path) -> set[str]:
    return {n for n in os.listdir(folder) if not n.startswith(".")}


def test_an_entry_read_between_writes_of_others_outlives_them(folder: Path) -> None:
    """The corpus's entry, written first and read after three of one's own, is still
    kept after three more (four kept): the least recently used went, not it. Reading it
    leaves its stamp alone (update's check that nobody wrote it since it was read)."""
    corpus = {"fixture": list(range(1000))}
    written("corpus.json", corpus, HOUR_AGO)
    for k in range(3):
        written(f"own-{k}.json", {"k": k}, HOUR_AGO + 1 + k)
    before = cache.stamp(KIND, "corpus.json")
    assert cache.read(KIND, "corpus.json") == corpus
    assert cache.stamp(KIND, "corpus.json") == before
    for k in range(3, 6):
        written(f"own-{k}.json", {"k": k}, HOUR_AGO + 1 + k)
    assert names(folder) == {"corpus.json", "own-3.json", "own-4.json", "own-5.json"}
    assert cache.read(KIND, "corpus.json") == corpus


def test_the_count_removes_what_was_used_least_recently(folder: Path) -> None:
    """Six entries written in order, the three oldest then read: a prune to four keeps
    those three and the last written, and removes the two written between, never read
    (the least recently written would have gone: the ones read). Their read records go
    with them."""
    for k in range(6):
        written(f"e{k}.json", [k], HOUR_AGO + k, keep=10)
    for k in range(3):
        assert cache.read(KIND, f"e{k}.json") == [k]
    cache.prune(folder, 4)
    assert names(folder) == {"e0.json", "e1.json", "e2.json", "e5.json"}
    records = folder.parent / cache.USED / KIND
    assert set(os.listdir(records)) == {"e0.json", "e1.json", "e2.json"}


def test_a_budget_in_bytes_removes_the_least_recently_used_first(folder: Path) -> None:
    """Under a budget, the entries used least recently go until the rest fit, and the one
    used last stays though it alone is larger than the budget."""
    big = ["x" * 4000]
    written("big.json", big, HOUR_AGO)
    written("small-0.json", [0], HOUR_AGO + 1)
    written("small-1.json", [1], HOUR_AGO + 2)
    assert cache.read(KIND, "big.json") == big  # the most recently used now
    size = (folder / "big.json").stat().st_size
    cache.prune(folder, 10, budget=size + (folder / "small-1.json").stat().st_size)
    assert names(folder) == {"big.json", "small-1.json"}
    written("huge.json", ["y" * 8000], time.time() + 1, keep=10, budget=size)
    cache.prune(folder, 10, budget=size)
    assert names(folder) == {"huge.json"}


def test_identify_keeps_the_corpus_pieces_past_five_sets_of_ones_own_rules(
        folder: Path) -> None:
    """The task's scenario, as identify's pieces and the lint's checks are kept (cells,
    scopes): the corpus's entries, large, then five identifies under rule-set files of
    one's own, each writing its small entry (no read of the corpus's in between): both
    corpus entries are still kept."""
    corpus = {f"fixture-{k}": ["piece" * 50] * 50 for k in range(100)}
    for kind, keep, budget in ((cells.KIND, cells.KEPT_ENTRIES, cells.KEPT_BYTES),
                               (scopes.ScopeCache.KIND, scopes.KEPT_ENTRIES,
                                scopes.KEPT_BYTES)):
        written("corpus.json", corpus, HOUR_AGO, keep, budget, kind)
        for k in range(5):
            written(f"own-rules-{k}.json", {"own": [k]}, HOUR_AGO + 1 + k, keep, budget, kind)
        assert cache.read(kind, "corpus.json") == corpus, kind


def test_a_prune_beside_another_and_a_reader_breaks_neither(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes pruning one folder at once: an entry the other removed after this
    one listed it is passed over, and the rest is pruned still (before: the look at the
    gone entry ended the prune, nothing removed). A reader halfway through an entry the
    prune removes reads it whole; a read record made for an entry pruned as it was read
    goes when the next prune
    removes entries."""
    for k in range(6):
        written(f"e{k}.json", [k] * 1000, HOUR_AGO + k, keep=10)
    reading = open(folder / "e0.json", "rb")  # noqa: SIM115  (closed below)
    half = reading.read(100)
    listed = os.listdir
    with monkeypatch.context() as patch:  # as the other prune left it, just after
        patch.setattr(os, "listdir",
                      lambda where: [*listed(where), "gone-meanwhile.json"])
        cache.prune(folder, 2)
    assert names(folder) == {"e4.json", "e5.json"}
    with reading:
        assert cache.unpacked(half + reading.read()) == [0] * 1000
    # a reader of e4 marks it read just after a prune removed it: an orphan record
    def pruned_meanwhile(data: bytes) -> object:
        os.remove(folder / "e4.json")
        return [4]

    with monkeypatch.context() as patch:
        patch.setattr(cache, "unpacked", pruned_meanwhile)
        assert cache.read(KIND, "e4.json") == [4]
    records = folder.parent / cache.USED / KIND
    assert os.listdir(records) == ["e4.json"]
    written("e6.json", [6], time.time(), keep=1)
    assert names(folder) == {"e6.json"}
    assert os.listdir(records) == []
