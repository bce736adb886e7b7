"""Do two builds of the engine play the same games? A check for speed work (issue 25).

    python benchmarks/same_games.py                      # reference/ at HEAD vs as installed
    python benchmarks/same_games.py --base main --rounds 20 --all

Plays `--rounds` random rounds (the seeds and choices of benchmarks/rounds_per_second.py)
of every shipped rule set (`--all`: every variant with every single overlay too), on a
few table sizes each, with two builds: reference/ at git revision `--base`, read into a
package of its own, and the engine as installed (its .py sources, or the compiled build
with `--compiled`). In every state reached both must give the same legal actions in the
same order, the same permitting clause for each, the same refusing clauses for a sample
of illegal actions, and the same state after the action; at the end the same result.
Prints one digest of everything compared, which two runs of the same code share, and
stops at the first difference.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import engine_speed as ES

from mtrain.reference.explore import rule_set_names, shipped_names
from mtrain.reference.simulate import round_seed
from mtrain.spec.catalog import catalog

PLAYERS = (2, 4, 6, 8, 12)
"""Table sizes tried for each rule set (those its hand table can deal)."""


def fields(names: tuple[str, ...], state: Any) -> tuple[Any, ...]:
    """A state's fields as plain values, comparable across builds (`rules` and `result`
    are each build's own classes; markers as one flag a train, the list they once were)."""
    out = []
    for name in names:
        value = getattr(state, name)
        if name == "rules":
            continue
        if name == "result" and value is not None:
            value = tuple(value)
        if name == "markers" and isinstance(value, int):  # a bitmask since session 38
            value = [bool(value >> t & 1) for t in range(state.players + 1)]
        out.append((name, value))
    return tuple(out)


def probes(engine: ModuleType, state: Any, rng: random.Random, count: int) -> list[Any]:
    """Up to `count` actions to ask about: plays of held tiles on any train (mostly
    illegal), a draw, a pass, an end-chain."""
    hand = state.hands[state.seat]
    tiles = [t for t in range(hand.bit_length()) if hand >> t & 1] or [0]
    out = [engine.DRAW, engine.PASS, engine.END_CHAIN]
    for _ in range(count):
        out.append(engine.Action("play", rng.choice(tiles), rng.randrange(state.players + 1)))
    return out


def describe(refusals: ModuleType, state: Any, legal: list[Any], asked: list[Any]) -> Any:
    """What one build says about `state`: the legal actions, each one's permitting clause,
    and the clauses refusing each illegal action asked about (`refusals`: the build's
    refusals.py, or its engine before that was split off)."""
    allowed = [(tuple(a), refusals.permission(state, a)) for a in legal]
    refused = [(tuple(a), [r.clause for r in refusals.refusals(state, a, legal)])
               for a in asked if a not in legal]
    return allowed, refused


def play(builds: list[ES.Build], ruleset: Any, players: int, rounds: int, seed: int,
         digest: Any, label: str) -> int:
    """Play the rounds with every build side by side; the actions compared."""
    rules = [b.rules.Rules.of(ruleset) for b in builds]
    choose = random.Random(seed).randrange
    ask = random.Random(f"probe {seed}")
    actions = 0
    names = builds[0].engine.State.__slots__  # the base's: a compiled State has none
    for index in range(rounds):
        round_no = 1 + index % rules[0].rounds
        states = [b.deal.deal(r, players, round_no, seed=round_seed(seed, index))
                  for b, r in zip(builds, rules, strict=True)]
        while True:
            seen = [fields(names, s) for s in states]
            if seen[0] != seen[1]:
                raise SystemExit(f"{label} round {index} action {actions}: the states differ")
            if states[0].phase == builds[0].engine.OVER:
                break
            legal = [b.engine.legal_actions(s) for b, s in zip(builds, states, strict=True)]
            asked = probes(builds[0].engine, states[0], ask, 3)
            said = [describe(b.refusals, s, lg, [b.engine.Action(*a) for a in asked])
                    for b, s, lg in zip(builds, states, legal, strict=True)]
            if said[0] != said[1]:
                raise SystemExit(f"{label} round {index} action {actions}: the builds "
                                 f"differ:\n  {said[0]}\n  {said[1]}")
            digest.update(repr(said[0]).encode())
            pick = choose(len(legal[0])) if len(legal[0]) > 1 else 0
            for b, s, lg in zip(builds, states, legal, strict=True):
                b.engine.perform(s, lg[pick])
            actions += 1
        digest.update(repr(seen[0]).encode())
    return actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--base", default="HEAD", help="git revision of the first build")
    parser.add_argument("--rounds", type=int, default=10, help="rounds per rule set and size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all", action="store_true",
                        help="every variant with every single overlay, not the shipped only")
    parser.add_argument("--compiled", action="store_true",
                        help="compare with the compiled build installed, not its sources")
    args = parser.parse_args(argv)
    cat = catalog()
    names = [*rule_set_names(), *cat.examples] if args.all else shipped_names()
    digest = hashlib.sha256()
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        base = ES.revision_build(args.base, Path(tmp), "_base_reference", "base")
        other = ES.compiled_build() if args.compiled else ES.pure_build(Path(tmp))
        if other is None:
            print("same_games: the engine installed is not the compiled build",
                  file=sys.stderr)
            return 2
        for name in names:
            ruleset = cat.ruleset(name)
            for players in PLAYERS:
                try:
                    ruleset.hand_size(players)
                except ValueError:
                    continue
                total += play([base, other], ruleset, players, args.rounds, args.seed,
                              digest, f"{name}, {players} players")
    print(f"same games: {len(names)} rule sets, {total} actions, {args.base} and "
          f"{other.name} agree; digest {digest.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
