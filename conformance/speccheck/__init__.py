"""`mtrain check`: every analysis of the specification, and the cross-checks of the
engine against the model, as jobs with one verdict each (`run`), and what each proves
(`claims`)."""
