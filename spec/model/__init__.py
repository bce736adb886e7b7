"""The model: the rules written a second time, from the clauses, apart from the engine.

It reads option values (a Ruleset, and for a small game the set's highest number), never
the engine's flags, and each meaning lives here once: one logic library (`logic`: the
connectives on plain values or z3 terms, folded or as built), legality (`legality`),
which clause refuses or permits an action and when a round is blocked, END-2 and END-3
(`decisions`), the round as a transition system (`transitions`) and its steps on a table
(`steps`), scoring and the match winners (`scoring`), whether a table can be reached
(`reachable`), and which rule sets play the same rounds (`alike`). Every formula is
evaluated on plain values or built as z3 terms by the same code.
"""
