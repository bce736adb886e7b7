"""The harness's defaults, which the command line shows in its help: plain values in a
module that imports nothing, so that `mtrain --help` need not load the harness."""

from __future__ import annotations

DEFAULT_TIMEOUT = 10.0
"""Seconds an implementation has for one request."""
DEFAULT_START_TIMEOUT = 60.0
"""Seconds a program has to start and answer its hello (--start-timeout): a JVM or a large
runtime at load takes seconds, and raising --timeout for it slowed every hang found later."""
START_HELP = ("for the hello that opens each process of the implementation, which waits on "
              "its start: a JVM or a large runtime needs more than a request (default "
              f"{DEFAULT_START_TIMEOUT:g})")
"""What --start-timeout (and the pytest plugin's --mtrain-start-timeout) is, as --help says."""
SITUATIONS = 700
"""Situations from play per conform run, shared among its rule sets
(selection.situation_count)."""
SITUATIONS_MIN = 25
"""Situations from play per rule set at least."""
RESULTS_FLOOR = 800
"""Results a run of one rule set (an engine's own, with the count of situations not asked)
reaches where it can: a rule set the corpus says little about (a hand table for 5 to 8
players, rules of its own) is asked more situations from play (selection.count_for_floor)."""
SITUATIONS_MAX = 20_000
"""The most situations from play one rule set may be asked for (`conform --situations`,
`situations -n`): each is played for, so a count past it would run for days (a count of
20 digits never finished)."""
FUZZ_OUT = "fuzz-out"
"""Where `mtrain fuzz` writes its reproducers."""
FOLLOW = ("ref", "impl")
"""Whose state a fuzz game goes on from after each step."""
PATTERN_HELP = ("only fixtures whose id contains PATTERN (-k doubles-00: doubles-001 to "
                "doubles-009), or, if PATTERN holds * ? or [, whose whole id it matches as a "
                "glob (-k 'doubles-0?1'; quote it from the shell); repeatable: any of them. "
                "A pattern no fixture id, nor any id of a situation from play "
                "(play-KIND-NNN), matches is refused, naming the ids close to it")
"""What -k does (selection.id_matches), as `mtrain conform --help` says it."""
