"""The cache key of the situations from play (conformance/situations.py): it covers the
source of every module situation making imports and the spec data, and nothing else, so
an edit elsewhere in the harness keeps them and an edit to what they use makes them anew."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mtrain.spec import cache

ROOT = Path(__file__).resolve().parent.parent
SITUATIONS = "mtrain.conformance.situations"
SOURCE = ("mtrain", "spec", "reference", "conformance")
"""The folders of the mtrain namespace in a clone."""


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


def fresh() -> None:
    """What import_closure and source_digest keep per process, forgotten."""
    cache.source_digest.cache_clear()
    cache._spec.cache_clear()


def test_the_closure_follows_every_form_of_import(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Imports at the top and inside functions, relative, parenthesised over lines, joined
    by a backslash, `import a.b as c`, a submodule imported by name: each module they name
    is in; one nobody imports is out, and so are modules of other packages."""
    write(tmp_path / "keypkg", {
        "__init__.py": "",
        "root.py": ("import json\n"
                    "import keypkg.top as t\n"
                    "from . import rel\n"
                    "from .sub.deep import x\n"
                    "from keypkg.sub import (\n    named,  # a comment\n    other_name,\n)\n"
                    "from keypkg import joined, \\\n    after\n"
                    "def later() -> None:\n    from keypkg.lazy import y\n"),
        "top.py": "", "rel.py": "", "parented.py": "",
        "sub/__init__.py": "", "sub/deep.py": "from .. import parented\nx = 1\n",
        "sub/named.py": "",
        "joined.py": "", "after.py": "",
        "lazy.py": "from keypkg.chained import z\ny = 2\n", "chained.py": "z = 3\n",
        "unused.py": "",
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    fresh()
    found = cache.import_closure("keypkg.root")
    assert set(found) == {"keypkg", "keypkg.root", "keypkg.top", "keypkg.rel", "keypkg.sub",
                          "keypkg.sub.deep", "keypkg.sub.named", "keypkg.joined",
                          "keypkg.after", "keypkg.lazy", "keypkg.chained",
                          "keypkg.parented"}
    assert found["keypkg.lazy"] == tmp_path / "keypkg" / "lazy.py"


def test_the_digest_moves_with_a_module_used_and_not_with_one_unused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "keypkg2", {
        "__init__.py": "", "root.py": "def f() -> int:\n    from keypkg2.used import n\n"
        "    return n\n", "used.py": "from keypkg2.deeper import m\nn = m\n",
        "deeper.py": "m = 1\n", "unused.py": "k = 1\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    fresh()
    first = cache.source_digest("keypkg2.root")
    for name, moves in (("unused.py", False), ("deeper.py", True), ("__init__.py", True)):
        path = tmp_path / "keypkg2" / name
        before = cache.source_digest("keypkg2.root")
        path.write_text(path.read_text(encoding="utf-8") + "# changed\n", encoding="utf-8")
        fresh()
        assert (cache.source_digest("keypkg2.root") != before) is moves, name
    assert cache.source_digest("keypkg2.root") != first


def test_situations_import_nothing_outside_their_closure(tmp_path: Path) -> None:
    """A fresh process makes situations (every kind, the ends, the deals, a rule set of
    its own played by a stand-in) and lists the mtrain modules it imported and the files
    of the clone it read: every module is in the closure the key digests, and every other
    file read is spec data, which the key digests too."""
    script = f"""
import json, sys
from pathlib import Path
read = set()
sys.addaudithook(lambda ev, args: read.add(args[0]) if ev == "open"
                 and isinstance(args[0], str) else None)
from mtrain.conformance import situations as S
from mtrain.spec.catalog import catalog
from mtrain.spec import cache
rulesets = [catalog().ruleset("pagat"), catalog().ruleset("puremco-d9"),
            catalog().rules_file(Path({str(ROOT / "tests/examples/hump-rules.yaml")!r}))]
for rs in rulesets:
    assert S._situations(rs, 14, None, S.SEED)
closure = {{name: str(path) for name, path in cache.import_closure("{SITUATIONS}").items()}}
print(json.dumps({{"modules": sorted(m for m in sys.modules if m.split(".")[0] == "mtrain"),
                  "closure": closure, "read": sorted(read)}}))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path,
                          env={"PATH": "/usr/bin:/bin", cache.CACHE_ENV: "off"})
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout)
    assert set(out["modules"]) <= set(out["closure"]), set(out["modules"]) - set(out["closure"])
    sources = {Path(p).resolve() for p in out["closure"].values()}
    spec = (ROOT / "spec").resolve()
    for name in out["read"]:
        path = Path(name).resolve()
        if not any(path.is_relative_to(ROOT / f) for f in SOURCE) or path.suffix == ".pyc":
            continue  # the rule-set file named above is the rule set, which is keyed
        assert path in sources or (path.is_relative_to(spec)
                                   and path.suffix in (".yaml", ".json")), path


def clone(into: Path) -> Path:
    """The source tree copied (no fixtures: situations read none), importable from its
    root as a clone is."""
    for folder in SOURCE:
        shutil.copytree(ROOT / folder, into / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "fixtures", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", into / "pyproject.toml")
    return into


KEY = """
import sys
from mtrain.conformance import situations as S
from mtrain.spec.catalog import catalog
assert S.__file__.startswith(sys.argv[1]), S.__file__
print(S._cache_key(catalog().ruleset("pagat"), 25, S.SEED))
"""


# slow: copies the source tree and computes the key in a process per edit; the key's
# closure is test_situations_import_nothing_outside_their_closure's, in the fast loop
@pytest.mark.slow
def test_the_key_changes_with_what_situations_use_and_only_that(tmp_path: Path) -> None:
    """In a copy of the source tree: an edit to the deals (situation_deals.py, which
    situations.py imports), to the engine, to the model or to the spec data makes a new
    key; an edit to the report, the worker pool or lint (which they do not import) keeps
    it."""
    tree = clone(tmp_path / "tree")

    def key() -> str:
        done = subprocess.run([sys.executable, "-c", KEY, str(tree)], cwd=tree,
                              capture_output=True, text=True, timeout=120,
                              env={"PATH": "/usr/bin:/bin"})
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout.strip()

    def edit(name: str) -> None:
        path = tree / name
        path.write_text(path.read_text(encoding="utf-8") + "\n# an edit\n",
                        encoding="utf-8")

    first = key()
    assert len(first) > 40 and key() == first
    for name in ("conformance/report.py", "conformance/pool.py",
                 "conformance/lint/__init__.py", "reference/explore.py"):
        edit(name)
    assert key() == first
    seen = {first}
    for name in ("conformance/situation_deals.py", "reference/engine.py",
                 "spec/model/legality.py", "spec/data/clauses.yaml"):
        edit(name)
        now = key()
        assert now not in seen, name
        seen.add(now)
