"""Rule-set files (spec/schemas/rules.schema.json) as the fuzz and house tests write them:
every option stated, one a line in the catalog's order, so that a test names only what
its rule set changes from a small plain game."""

from __future__ import annotations

SMALL = {
    "tile_set": "double-6", "hand_sizes": "{2: 8, 3: 7, 4: 6}",
    "engine_procedure": "set-aside", "starting_seat": "rotate", "first_turn": "single",
    "mexican_first_turn": "anyone", "own_train_first": "not-required", "doubles": "open",
    "follow_up": "anywhere", "double_order": "oldest-first",
    "uncoverable_double": "stays-open", "marker_removal": "owner-plays-own",
    "draw_rule": "draw-one", "blocked_round": "full-round-of-passes", "scoring": "penalty",
    "blank_values": "face", "tie_rule": "shared", "match_length": "single-round",
}
"""A double-6 game of one round, every option at a published value."""


def rules_text(name: str | None = None, base: str | None = None,
               **changed: str | None) -> str:
    """The file of rule set `name` (on `base`, where given): SMALL with the values
    `changed`, an option changed to None left out (its base's value)."""
    unknown = set(changed) - set(SMALL)
    assert not unknown, f"no such option: {sorted(unknown)}"
    values = {**SMALL, **changed}
    head = ([f"name: {name}"] if name else []) + ([f"base: {base}"] if base else [])
    lines = [*head, "options:", *(f"  {o}: {v}" for o, v in values.items() if v is not None)]
    return "\n".join(lines) + "\n"
