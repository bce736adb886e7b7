"""The option space: every rule set the options compose, enumerated (`grid`), as a z3
feature model (`features`), and the checks `mtrain check --only options` runs (`checks`)."""
