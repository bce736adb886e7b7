"""The command line: one module per subcommand under mtrain/commands/, each registering
its own arguments; and `mtrain --help` and `mtrain serve` light at start (`mtrain serve`
is started once per job of every conform and fuzz run): they import no z3, read from
`python -X importtime`."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mtrain import cli
from mtrain.spec.cache import CACHE_ENV

COMMANDS_DIR = Path(__file__).resolve().parents[1] / "mtrain" / "commands"
HELPERS = {"__init__", "arguments", "printing"}
ADAPTERS = Path(__file__).resolve().parent / "broken_impls" / "adapters.py"


def imported(*args: str, stdin: str = "") -> set[str]:
    """The modules `python -m mtrain ARGS` imports, by `-X importtime`."""
    names, _ = imported_by("-m", "mtrain", *args, stdin=stdin)
    assert "mtrain.cli" in names
    return names


def imported_by(*argv: str, stdin: str = "") -> tuple[set[str], str]:
    """The modules `python ARGV` imports, by `-X importtime`, and what it wrote."""
    done = subprocess.run([sys.executable, "-X", "importtime", *argv],
                          input=stdin, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    names = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "package":  # the header line
                names.add(name)
    return names, done.stdout


NOT_AT_START = ("z3", "rich", "importlib.metadata", "importlib.resources", "difflib")
"""What `mtrain serve` and an adapter's host need not import: the model's solver, the
metadata reader and the resource reader (whose imports were an eighth and a twentieth of
serve's start-up: spec/yamlschema.py and spec/package_files.py find the same without
them), and the spelling suggestions of a mistyped command."""


def test_one_module_per_command() -> None:
    modules = {p.stem for p in COMMANDS_DIR.glob("*.py")} - HELPERS
    assert modules == set(cli.COMMANDS)
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(sub.choices) == list(cli.COMMANDS)


def test_help_imports_no_z3_and_no_schemas() -> None:
    names = imported("--help")
    assert "z3" not in names
    assert "jsonschema" not in names
    assert not {n for n in names if n.startswith("mtrain.spec.")}, "the help reads no spec"


@pytest.mark.parametrize("args", [(), ("--rules", "spec/data/rulesets/double-6.yaml")])
def test_serve_imports_no_z3(args: tuple[str, ...]) -> None:
    root = Path(__file__).resolve().parents[1]
    names = imported("serve", *(str(root / a) if a.endswith(".yaml") else a for a in args),
                     stdin='{"id": 1, "type": "shutdown"}\n')
    assert "mtrain.conformance.serve" in names
    assert "z3" not in names
    # (jsonschema, imported here where the cache is new, imports importlib.resources)
    assert not names & (set(NOT_AT_START) - {"importlib.resources"})
    others = {n for n in names if n.startswith("mtrain.commands.")}
    assert others <= {"mtrain.commands", "mtrain.commands.serve", "mtrain.commands.printing"}


SHUTDOWN = '{"id": 1, "type": "shutdown"}\n'


def test_serve_with_its_cache_kept_imports_no_schema_validator(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    # a cache kept from nothing: the spec data is checked against its schemas, once
    assert "jsonschema" in imported("serve", stdin=SHUTDOWN)
    names = imported("serve", stdin=SHUTDOWN)
    assert "mtrain.spec.catalog" in names
    assert not names & {*NOT_AT_START, "jsonschema"}


def test_adapter_host_imports_only_what_it_needs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mtrain.conformance.adapter import ruleset_json
    from mtrain.spec import tiles
    from mtrain.spec.catalog import catalog

    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    rules = ruleset_json(catalog().ruleset("pagat"))
    order = [tiles.name(t) for t in range(tiles.set_size(12))]
    calls = "".join(json.dumps({"call": name, "args": args}) + "\n" for name, args in (
        ("info", []), ("deal", [rules, 4, 1, order])))
    host = ("-P", "-m", "mtrain.conformance.inprocess", f"{ADAPTERS}:Reference")
    imported_by(*host, stdin=calls)  # the first checks the spec data against its schemas
    names, out = imported_by(*host, stdin=calls)
    answers = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert [sorted(a) for a in answers] == [["ready"], ["value"], ["value"]], out[-2000:]
    assert answers[2]["value"]["round"] == 1  # dealt: the catalogue was read and used
    assert "mtrain.reference.engine" in names
    assert not names & {*NOT_AT_START, "jsonschema"}


OWN_ENGINE = """
from mtrain.conformance.adapter import JSON, Refused, RefusedSetup, Unsupported


class Engine:
    def info(self) -> JSON:
        return {"name": "own", "version": "1", "variants": ["*"]}

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str]) -> JSON:
        raise RefusedSetup("no deal of mine", "DEAL-7")

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        raise Unsupported()

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        raise Refused("never", None)

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        return []
"""


def test_the_host_of_an_engine_of_its_own_imports_no_reference(tmp_path: Path) -> None:
    # what an adapter imports from mtrain.conformance.adapter (JSON, Refused, ...) brings
    # neither the reference engine nor the catalogue (reference_adapter.py holds them), and
    # its path is checked without the YAML reader (spec/file_checks.py)
    engine = tmp_path / "own_engine.py"
    engine.write_text(OWN_ENGINE)
    calls = "".join(json.dumps({"call": name, "args": args}) + "\n" for name, args in (
        ("info", []), ("deal", [{"name": "pagat"}, 4, 1, []])))
    names, out = imported_by("-P", "-m", "mtrain.conformance.inprocess", f"{engine}:Engine",
                             stdin=calls)
    answers = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert answers[1:] == [{"value": {"name": "own", "version": "1", "variants": ["*"]}},
                           {"refused_setup": ["no deal of mine", "DEAL-7"]}], out[-2000:]
    assert "mtrain.conformance.adapter" in names
    assert not {n for n in names if n.startswith("mtrain.reference")}
    assert not names & {"mtrain.conformance.reference_adapter", "mtrain.spec.catalog",
                        "mtrain.spec.tiles", "mtrain.spec.yamlload", "yaml", *NOT_AT_START,
                        "jsonschema"}


def test_identify_summary_counts_what_it_does_not_list() -> None:
    from mtrain.commands.identify import SHOWN, _first

    ids = [f"fx-{i:03d}" for i in range(SHOWN + 5)]
    assert _first(ids).endswith(f"fx-{SHOWN - 1:03d} and 5 more")
    assert _first(ids[:SHOWN]) == ", ".join(ids[:SHOWN])
