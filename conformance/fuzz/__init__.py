"""`mtrain fuzz`: random games against the reference engine, disagreements grouped by
signature and shrunk to fixtures.

The reference engine plays random games under the shipped variants and their overlay
combinations (within what the implementation declares), or the rule sets named. At every
step the implementation under test is asked the same questions and its answers are
compared with the reference's (play.py, steps.py); every answer that is not identical to the
reference's is also checked against the schemas and the invariants (answers.py). A
disagreement is recorded under its signature (judge.py) and play goes on, from the
reference's state or, with `--follow impl`, from the implementation's own.

At the end every new signature (one not in the --known file) is reported once, with how
often it showed, and its smallest probe is shrunk while it shows that same signature
(shrink.py), checked to be a possible table that the reference passes and the
implementation fails, and written as a fixture that `mtrain conform --fixtures FILE` runs
(reproducer.py). Signatures whose reproducers conform charges to the same clause, for the
same cause, are one bug seen in several kinds of step: one finding, the others listed
under it (run.py one_per_bug).

    mtrain fuzz --mutant NAME --games 200 --seed 1
    mtrain fuzz --impl 'python my_engine.py' --follow impl --known known.yaml

Each rule set's setups at the player counts its table lacks are asked too (refused by
DEAL-7, or a finding), and under a match length of its own the last round its match
has at each count played, so that no game starts after it (setups.py). At each round end
the round's `score` is asked (scoring.py), and at a last round the totals a made-up tie
leaves as well as the winners (round_end.py).

Half the games of a rule set with a round-end rule of its own (blocked round, scoring,
blank values, tie rule) are steered toward a blocked end, where those rules are read: the
reference's plays are chosen to leave trains on numbers nobody can follow (steer.py); so
are a third of the other games on a set of double-15 or more, where random play seldom
empties the boneyard (the stand-in's games below kept as they were).
Where the implementation's own rules list fewer moves than the reference's stand-in, a
move both allow is played, except in a quarter of the other games of such a rule set
(plans.STAND_IN_SHARE): there the stand-in's move is played on the reference alone, so
that tables its own game never reaches but the known rules do are asked too, each answer
judged where it reads no rule of its own, as conform judges its fixtures.

Modules: rulesets (which rule sets, and a mutant's), plans (each game's plan), steer
(games steered toward a blocked end), play (a game's rounds), steps (one step's
questions and move), round_end (the questions after a round's end), asking (the
implementation's answers), results (what a game found), totals (made-up match totals), setups
(the counts a table lacks, a match's rounds), scoring (the `score` question at a round's
end), judge (what is compared, and signatures), own_doubles (a legal list under a
doubles rule of one's own, cut as conform cuts it), tables (fixture notation), possible
(what a table must be), shrink, over_cut (cutting down a finished table asked who wins),
reproducer, run (a whole run, with --jobs); the command line and its report:
mtrain/commands/fuzz.py.
"""

from __future__ import annotations

from mtrain.conformance.fuzz.asking import Session
from mtrain.conformance.fuzz.findings import Group
from mtrain.conformance.fuzz.judge import Disagreement, Probe, differences
from mtrain.conformance.fuzz.plans import GamePlan, plan_game
from mtrain.conformance.fuzz.play import play_game
from mtrain.conformance.fuzz.possible import fixture_problems, table_problems
from mtrain.conformance.fuzz.rejudge import Judge
from mtrain.conformance.fuzz.results import GameResult, Occurrence
from mtrain.conformance.fuzz.rulesets import Chooser, Context, context, mutant_variants
from mtrain.conformance.fuzz.run import DEFAULT_OUT, FuzzReport, StartError, Target, fuzz
from mtrain.conformance.fuzz.shrink import Shrinker
from mtrain.conformance.fuzz.tables import compact, table_of, written

__all__ = [
    "DEFAULT_OUT", "Chooser", "Context", "Disagreement", "FuzzReport", "GamePlan",
    "GameResult", "Group", "Judge", "Occurrence", "Probe", "Session", "Shrinker",
    "StartError", "Target", "compact", "context", "differences", "fixture_problems",
    "fuzz", "mutant_variants", "plan_game", "play_game", "table_of", "table_problems",
    "written",
]
