"""Faults the 38th example engine showed the suite (tests/examples/tramway_engine.py, a
hobbyist's game server's rules core in Python, run as a program, on double-11 for 2 to 6
players, with three house rules and three planted bugs written in its docstring before
any run).

- identify stopped at the hello (exit 2) when the engine's declared rules held a value the
  catalogue lacks (tramway's `tile_set: double-11`): identify is the command for an author
  who does not know the names, so a declaration it cannot read is a warning and the run
  goes on as for an engine that declares nothing;
"""

from __future__ import annotations

import pytest

from mtrain.commands import identify as identify_command
from mtrain.spec.catalog import catalog


def test_identify_reads_past_a_declaration_with_an_unknown_value(
        capsys: pytest.CaptureFixture[str]) -> None:
    info = {"rules": {"name": "tramway", "options": {"tile_set": "double-99"}}}
    assert identify_command._declaration(info) is None
    err = capsys.readouterr().err
    assert err.startswith("warning: the implementation's declared rules are not read "
                          "(`rules.options.tile_set`: unknown value 'double-99'"), err
    assert err.rstrip().endswith("identifying as if it declared none"), err


def test_identify_still_reads_a_declaration_it_knows(capsys: pytest.CaptureFixture[str]) -> None:
    puremco_d9 = catalog().ruleset("puremco-d9")
    info = {"rules": {"name": "mine", "options": dict(puremco_d9.choices)}}
    declared = identify_command._declaration(info)
    assert declared is not None and declared["tile_set"] == "double-9"
    assert capsys.readouterr().err == ""
