"""How many of a default `mtrain conform`'s played results send the engine what another
played result sent it: the ceiling of "play a request once, report it under each".

    python benchmarks/conform_repeats.py [conform arguments...]

In-process, the embedded reference's passes are kept by what their rule sets read
(conformance/resultmemo.py), so the results still played are the first run of each shared
entry and the entries run once. This runs conform in this process with
`ResultMemo.run` (every result the memo does not serve goes through it) wrapped, and
counts, over the played results:

- exact repeats: the same entry (`resultmemo.entry_key`: everything a run reads of the
  fixture and its expectation) under a rule set whose JSON, as sent, is the same text;
  such a result is the same result, and could be played once;
- shared plays: different entries (another fixture id, clause list or expectation) whose
  run sends the same table, deal, steps, setup probes and starts under the same rule-set
  JSON: an engine is sent the same states and actions, so a conforming one answers
  alike, but each entry checks its answers against its own expectation (and names its
  own id), so only the engine's answers, not the results, could be shared.

The rule set's JSON is compared as orjson writes it with sorted keys, the rest as a
pickle (`answers.exact_text`: equal texts are equal values of equal types). Prints the
counts and the load average; the figures are counts, which the load does not move.
"""

from __future__ import annotations

import collections
import contextlib
import io
import os
import sys
from typing import Any

import orjson

from mtrain.cli import main
from mtrain.conformance import resultmemo
from mtrain.conformance.answers import exact_text


def request_text(task: Any, rj: Any) -> tuple[bytes | None, bytes]:
    """What the engine is sent for `task` (the fixture's table, deal, steps, setup probes
    and starts; the rule set's JSON), as two exact texts."""
    fx = task.fixture
    sent = rj if isinstance(rj, bytes) else orjson.dumps(rj, option=orjson.OPT_SORT_KEYS)
    return exact_text((fx.table, fx.deal, fx.steps, fx.probes_setup, fx.starts_text())), sent


def count(argv: list[str]) -> dict[str, int]:
    played: collections.Counter[tuple[Any, bytes]] = collections.Counter()
    entries: dict[tuple[bytes | None, bytes], set[Any]] = collections.defaultdict(set)
    original = resultmemo.ResultMemo.run

    def run(self: resultmemo.ResultMemo, task: Any, impl: Any, rj: Any,
            require_clauses: bool = False, looked: bool = False) -> Any:
        request = request_text(task, rj)
        entry = resultmemo.entry_key(task.fixture, task.expectation)
        played[(entry, request[1])] += 1
        entries[request].add(entry)
        return original(self, task, impl, rj, require_clauses, looked)

    resultmemo.ResultMemo.run = run  # type: ignore[method-assign]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(["conform", *argv])
    finally:
        resultmemo.ResultMemo.run = original  # type: ignore[method-assign]
    total = sum(played.values())
    return {
        "exit code": code,
        "results played": total,
        "exact repeats (same entry, same rule-set JSON)": total - len(played),
        "distinct requests (start, steps, rule-set JSON)": len(entries),
        "requests sent by more than one entry": sum(1 for e in entries.values() if len(e) > 1),
        "played results whose request another played result sent":
            sum(len(e) for e in entries.values() if len(e) > 1)
            - sum(1 for e in entries.values() if len(e) > 1),
    }


def main_() -> int:
    load = os.getloadavg()[0]
    figures = count(sys.argv[1:])
    print(f"mtrain conform {' '.join(sys.argv[1:])} (load {load:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after)")
    for name, value in figures.items():
        print(f"  {name}: {value:,}")
    if not figures["results played"]:  # the memo off (MTRAIN_RESULT_MEMO): nothing counted
        print("no result went through the memo of passes: nothing was counted "
              f"({resultmemo.MEMO_ENV} off, or no result of the embedded reference)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main_())
