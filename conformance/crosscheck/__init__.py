"""The engine against the model: one source of states, one comparison per aspect.

The reference engine (reference/) and the model (spec/model/) are the two independent
formalisations of the rules; everything here puts the same states to both and reports
where they part: legal sets and refusing clauses (`legal_sets`), the round's effects
(`round_effects`), the clauses each rule set can reach (`witnesses`), and the invariants'
texts against their checks (`invariant_texts`).
"""
