"""What each check of `mtrain check` proves, over what, and what it does not.

docs/consistency.md prints this table; its sizes are read from the constants the checks
run with, so the page cannot claim more than the code explores. A row names the
`--full` differences; a check absent here is described by its findings alone.
"""

from __future__ import annotations

from typing import Any

Row = tuple[str, str, str, str]
"""(check, what it decides and how, over what, what it does not cover)."""


def _sizes(sizes: Any) -> str:
    return ", ".join(f"{s.label} ({'every deal' if s.deals is None else f'{s.deals} deals'})"
                     for s in sizes)


def _models(models: Any) -> str:
    return ", ".join(f"double-{n}, {p} players x{h}" for n, p, h in models)


def rows() -> list[Row]:
    from mtrain.conformance.crosscheck.driver import FULL_MODELS, QUICK_MODELS
    from mtrain.conformance.crosscheck.legal_sets import DEFAULT_STATES, FULL_STATES
    from mtrain.conformance.crosscheck.round_effects import GAME_STATES, SMALL_STATES
    from mtrain.conformance.crosscheck.witnesses import SMALL_SIZES, UNCOVERABLE_CASES
    from mtrain.reference.explore import FULL_SIZES, QUICK_SIZES
    from mtrain.spec.proofs.assumptions import FULL_SIZES as A_FULL
    from mtrain.spec.proofs.assumptions import SIZES as A_SIZES

    def pairs(sizes: Any) -> str:
        return ", ".join(f"double-{n}, {p} players" for n, p in sizes)

    return [
        ("shipped-variants", "z3: each shipped variant's values meet every constraint (each "
         "clause's `when -> requires`, each DEAL-8 row).", "The shipped variants.",
         "Play: only the option values are judged."),
        ("overlay-combinations", "Enumeration: every subset of the overlays on every shipped "
         "variant. The overlays that set an option some constraint reads are composed by the "
         "catalog subset by subset; the others set only options no constraint reads, so they "
         "cannot change a verdict and are counted, not re-composed. A contradictory "
         "composition fails unless a clause declares it (`refuses`, with the reason); a "
         "declaration that refuses nothing fails too. z3 cross-checks every single overlay "
         "and gives the core of each failure.",
         "All subsets (exhaustive); two overlays answering one option differently, or one "
         "outside its `applies_to`, do not compose and are counted apart.",
         "Whether the combinations play differently (`mtrain diff`); user files unless given "
         "with `--rules`."),
        ("values", "Enumeration of every valid rule set: a value no valid rule set takes "
         "fails; z3 asks each value too and must agree; forced values (backbone) are shown.",
         "Every assignment of every option (exhaustive, group by group).", "Play."),
        ("value-meaning", "Every option value is named by some clause's `when`, or says in "
         "`meant_by` which clauses give it its meaning; otherwise it fails.",
         "Every value of options.yaml.",
         "Whether the engine plays the value as its clauses say (conformance and mutants)."),
        ("contradictory-pairs", "Enumeration: every pair of values of two options that no "
         "valid rule set takes together, with its z3 core (information: each is a clause's "
         "`requires` or a DEAL-8 row at work).", "Every pair (exhaustive).", "Triples and "
         "beyond (overlay-combinations and values cover whole rule sets)."),
        ("clause-usage", "Enumeration: a clause whose `when` no valid rule set meets fails "
         "(dead in the option space), with its z3 core; a clause applying in every valid rule "
         "set is shown (false-optional).", "Every clause with a `when`, every valid rule set.",
         "Whether the clause ever fires in play: that is `reachability`."),
        ("sources", "Each variant and overlay citing a source takes, for every option the "
         "source speaks of (`says` in sources.yaml, with shared/RULES.md's words), a value the "
         "source gives; the clause carrying that value applies under it and cites the source.",
         "Every variant (its composed values) and overlay (its own values); the options each "
         "source's `says` lists.",
         "Options a source is silent on; the wording of clause texts (a text moved to another "
         "clause with the ids and conditions left in place is not caught)."),
        ("atomic-sets, redundant-constraints, model-count, deal-feasibility", "z3: values "
         "that always go together, constraints implied by others, the number of valid rule "
         "sets (must equal the enumeration's, else it fails), which hand-size rows fit which "
         "set (information).", "The whole option space.", "Play."),
        ("invariants", "Every invariant of invariants.yaml has a check in "
         "reference/invariants.py and each check an invariant; each invariant's example state "
         "(a change, written from its text, to spec/data/invariant-base.yaml) is flagged by "
         "exactly the invariants it lists, and the unchanged state by none.",
         "One example per invariant, on one double-9 state.",
         "That a check catches every state its text forbids: one example each."),
        ("small-games", "The engine explores every state reachable from each explored deal: "
         "no deadlock, no cycle, every invariant in every state.",
         f"Each distinct rule set (shipped variants and single overlays): {_sizes(QUICK_SIZES)}; "
         f"`--full`: {_sizes(FULL_SIZES)}, and more for the shipped variants.",
         "Exhaustive only where a size says every deal; full-size sets are not explored."),
        ("termination, deadlock", "z3 proofs on the abstract round model: an inductive "
         "invariant and a ranking function that every action decreases; no well-formed "
         "non-final state without a legal action.",
         f"Each shipped variant, on {_models(QUICK_MODELS)}; `--full`: every rule set of "
         f"small-games, on {_models(FULL_MODELS)}.",
         "Other sizes: the proofs are for these small models only."),
        ("model-vs-engine", "On sampled explored states the abstract model enables exactly "
         "the engine's legal actions and meets its invariant.",
         "60 states per rule set and model (`--full`: 200).", "Unsampled states; full sizes."),
        ("effects-vs-engine", "For every legal action of a sampled state, the engine's "
         "successor equals the round model's (spec/model/transitions.py, the effects the proofs "
         "reason about) field by field: every tile's place, each train's end and start, the "
         "open doubles in the order laid and this turn's, markers, first turns, seat, "
         "starter, phase, drawn tile, passes, result; on plain values also the scores of a "
         "round that ends (spec/model/scoring.py). A difference names the action, the "
         "field and its clause. On small games the model's z3 terms are evaluated in the "
         "state and the same code runs on plain values; on full-size rounds, plain values.",
         f"Small games: each shipped variant on {_models(QUICK_MODELS)}, {SMALL_STATES} "
         f"explored states each (`--full`: every rule set, {_models(FULL_MODELS)}, 200); "
         f"full-size: random rounds of every player count on the shipped variants, their "
         f"double-15 overlays and the rule-set files, {GAME_STATES} states each (`--full`: "
         f"every rule set, {GAME_STATES * 10:,}).",
         "States not sampled; the order of tiles along a train (not in the model); a draw is "
         "compared for the tile the engine drew only."),
        ("engine-vs-model", "On states of random full-size rounds, the legal actions "
         "(spec/model/legality.py), the clause that permits each legal action and refuses each "
         "illegal candidate (spec/model/decisions.py) and the END-2/END-3 verdict equal the "
         "engine's; a z3 search asks each decision path of the model for a 4-player table "
         "and compares the engine there.",
         f"Every shipped variant and single overlay and every rule-set file, on its own set: "
         f"{DEFAULT_STATES} states "
         f"each (`--full`: {FULL_STATES:,}); z3 tables with numbers 0-9, 3 hand tiles.",
         "States not sampled; one table per z3 path, not every table."),
        ("parametric-proofs", "Termination (a ranking over tiles in hands and boneyard, "
         "first turns and passes) and deadlock freedom with the sizes as z3 integers.",
         "Any number of players and any tile set; every value of every option.",
         "What each action does to the counts is assumed: proved on the round model for the "
         "sizes of parametric-assumptions (with `--full`, every shipped set at every table "
         "size it deals), not for sets or tables no rule set ships."),
        ("parametric-assumptions", "z3 on the round model, one query per action (each play "
         "of each tile on each train, each draw, pass, end-chain): the facts of reachable "
         "states the counts read (J: ranges, passes only on an empty boneyard, a chain is a "
         "first turn with nothing drawn, doubles of this turn only mid-turn, the engine in "
         "the boneyard while drawn for) hold at the deal (and some deal exists, so that no "
         "query holds of nothing) and are kept by every action, and "
         "each action changes B, H, F and the passes as parametric-proofs' step says; under "
         "END-2, d < 2P in a round not found blocked, a pass one turn nearer the next play, "
         "a mover who cannot play at least one turn away.",
         f"The shipped variants on {pairs(A_SIZES)} (`--full`: every rule set on "
         f"{pairs(A_FULL)}, and every shipped rule set and every `--rules` file on its own set "
         "at every table size it deals, as checks of their own).",
         "Round 1 only (the engine of other rounds is another double); the END-2 lemmas "
         "read each seat's start-of-turn test as a free Boolean (sound: the tests' own "
         "values are one case), so they prove how the tests combine, not what each says."),
        ("reachability", "A witness for every clause with a firing condition under each rule "
         "set it applies to (random rounds on the real set, small games, or a z3 state), or a "
         "z3 proof that it is dead. A dead clause fails unless clauses.yaml marks it "
         "`expected_dead` with the reason; a marked clause that fires fails.",
         f"The shipped variants (single overlays for clauses only they bring in): 150 random "
         f"rounds (`--full`: 400), small games {_sizes(SMALL_SIZES)}; death proved on a "
         "double-3 model with 3 players.", "A z3 state is well-formed but maybe unreachable; "
         "death is proved on the small model only."),
        ("uncoverable-double", "The fewest actions to an uncoverable double's outcome, by "
         "the engine and by bounded model checking in z3, which must agree; under stays-open, "
         "no play after it binds.",
         ", ".join(f"{name} on {q.label} ({q.deals} deals; `--full`: {f.label}, every deal)"
                   for name, q, f in UNCOVERABLE_CASES) + ".",
         "That no shorter trace exists is asked only with `--full`."),
        ("agreement", "The engine's exploration and z3's proofs say the same: no deadlock "
         "by either, every explored round within the ranking bound, the same fewest actions "
         "to an uncoverable double.", "What small-games, termination and uncoverable-double "
         "computed.", "Anything they did not compute."),
        ("rules-files, variant-files", "Files given with `--rules` (rule-set files) or "
         "`--variant`: composed by the catalog (each `requires`, DEAL-8 with the file's own "
         "hand table), and asked of z3.", "The files given.", "Files not given."),
    ]
