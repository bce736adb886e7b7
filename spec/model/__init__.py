"""The model: the rules written a second time, from the clauses, apart from the engine.

It reads option values (a Ruleset), never the engine's flags, and each meaning lives here
once: legality (`legality`), which clause refuses or permits an action and when a round
is blocked (`decisions`), the round as a transition system (`transitions`), scoring and
the match winners (`scoring`), and whether a table can be reached (`reachable`). Every
formula is evaluated on plain values or built as z3 terms by the same code.
"""
