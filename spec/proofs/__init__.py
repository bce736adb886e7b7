"""Proofs on the model's round (spec/model/transitions.py): termination and deadlock
freedom on small sets (`termination`), for any size (`parametric`), and that proof's
assumptions at full size (`assumptions`)."""
