"""`mtrain situations` and the situations written out (conformance/situation_files.py):
libyaml's emitter, the same text as PyYAML's own, kept out of the situations' code digest;
a second run reads the list the first kept."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mtrain.cli import main
from mtrain.commands.arguments import resolve
from mtrain.conformance import situation_files
from mtrain.conformance import situations as situations_module
from mtrain.conformance.situation_files import HEADER, fixture_data, render
from mtrain.conformance.situations import situations
from mtrain.spec import cache
from mtrain.spec.cache import CACHE_ENV
from mtrain.spec.catalog import catalog

EXAMPLES = Path(__file__).parent / "examples"


def _python_emitter_text(rs_name: str) -> tuple[str, str]:
    """(render's text, PyYAML's pure-Python emitter's text) of 24 situations."""
    rs = resolve(catalog(), rs_name)
    made = situations(rs, 24)
    body = "\n".join(yaml.dump([fixture_data(fx, rs)], Dumper=yaml.SafeDumper, sort_keys=False,
                               default_flow_style=None, width=92, allow_unicode=True)
                     for fx in made)
    return render(made, rs), f"{HEADER}# rule set: {rs.name}\n\n{body}"


@pytest.mark.parametrize("name", ["puremco-d9", str(EXAMPLES / "cantina-rules.yaml")])
def test_the_text_is_the_pure_python_emitters(name: str) -> None:
    # a guard (passed before too, when render used the pure-Python emitter): a shipped rule
    # set, and a file with rules of its own (notes and scopes of their own)
    ours, theirs = _python_emitter_text(name)
    assert ours == theirs and "- id: play-" in ours


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML built without libyaml")
def test_render_leaves_the_pure_python_emitter_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    rs = catalog().ruleset("puremco-d9")
    made = situations(rs, 8)

    def refuse(*_: object) -> None:
        raise AssertionError("the pure-Python emitter ran")
    monkeypatch.setattr(yaml.emitter.Emitter, "emit", refuse)
    assert render(made, rs).count("- id: ") == len(made)


def test_the_writer_is_outside_the_situations_code_digest() -> None:
    # how situations are written changes none of them: an edit to it keeps their cache
    # entries and the shipped files (situations._code_digest digests this closure)
    closure = cache.import_closure("mtrain.conformance.situations")
    assert "mtrain.conformance.situations" in closure
    assert situation_files.__name__ not in closure


def test_a_second_run_reads_the_list_the_first_kept(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # without -k the command asks every situation as conform does, so the list is kept
    # (before, it asked through a filter that let all through, and was never kept)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    made = situations_module._situations
    calls = []

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(args[1])
        return made(*args, **kwargs)  # type: ignore[arg-type]
    monkeypatch.setattr(situations_module, "_situations", counted)
    rules = str(EXAMPLES / "cantina-rules.yaml")
    texts = []
    for _ in range(2):
        assert main(["situations", rules, "-n", "24"]) == 0
        texts.append(capsys.readouterr().out)
    assert calls == [24] and texts[0] == texts[1] and texts[0].count("- id: play-") > 24
