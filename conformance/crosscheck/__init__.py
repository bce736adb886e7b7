"""The engine against the model: one source of states, one comparison per aspect.

The reference engine (reference/) and the model (spec/model/) are the two independent
formalisations of the rules; everything here puts the same states to both and reports
where they part. The states come from one driver (`driver`: explored small games and
random full-size rounds, both sides reading the same Ruleset); the comparators: legal
sets, permitting and refusing clauses and END-2/END-3 (`legal_sets`), the model's guards
and invariant and the round's effects and scores (`round_effects`), the clauses each
rule set can reach (`witnesses`), and the invariants' texts against their checks
(`invariant_texts`).
"""
