"""Bad inputs and misbehaving engines, round 35 (robust-s62): a reaper told to end (the
watchdog's SIGTERM) in the moment after it said `run` and before it held the engine.

Session 61's clean-clone CI failed once on test_robust_s58's "a worker reaps its watchdog"
at load 2.8: the worker ended at once, its watchdog SIGTERMed the engine's reaper, the
SIGTERM came before the reaper's wake pipe was set, and was noted and lost. The reaper then
held the engine until the watchdog gave up on it (5 s) and killed the groups, and the
worker, waiting 2 s for its watchdog, left it to be adopted. Here the SIGTERM is sent at
that moment by the reaper itself, so the test fails every time where the signal is lost."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance import reaper
from mtrain.spec import yamlload

linux = pytest.mark.skipif(not sys.platform.startswith("linux") or
                           not hasattr(os, "pidfd_open"), reason="subreapers are Linux's")

# reaper.py as the harness starts it, but it SIGTERMs itself just after it said `run`
TERMED_AFTER_RUN = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, os.path.dirname({path!r}))
    import reaper

    said = reaper._say

    def say_then_term(fd, text):
        done = said(fd, text)
        if text == "run":
            os.kill(os.getpid(), signal.SIGTERM)
        return done

    reaper._say = say_then_term
    reaper.main(sys.argv[1:])
""")


@linux
def test_a_sigterm_just_after_run_ends_the_engine_at_once(tmp_path: Path) -> None:
    script = tmp_path / "termed.py"
    script.write_text(TERMED_AFTER_RUN.format(path=reaper.__file__))
    ours, theirs = socket.socketpair()
    engine = [sys.executable, "-c", "import time; time.sleep(600)"]
    proc = subprocess.Popen([sys.executable, "-I", "-S", str(script), str(theirs.fileno()),
                             *engine], pass_fds=[theirs.fileno()])
    theirs.close()
    try:
        ours.settimeout(60)
        said = b""
        start = time.monotonic()
        while not said.endswith(b"end\n"):  # `run`, then `end` once it swept
            chunk = ours.recv(64)
            if not chunk:
                break
            said += chunk
        code = proc.wait(60)
        took = time.monotonic() - start
    finally:
        ours.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # the engine killed by the reaper (its SIGKILL, said as the reaper's own end)
    assert (said, code) == (b"run\nend\n", -9)
    assert took < 30, took  # at once, not at the engine's own end 600 s later


# --- 2. a file of a million values, a string of a million characters -------------------


def test_a_fixture_file_of_a_million_values_is_refused_before_it_is_built(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # one fixture whose clause list has a million items (7 MB): loaded in full and checked,
    # a list of a million values took lint 279 s and 1.2 GB
    path = tmp_path / "huge.yaml"
    path.write_text("- id: huge-001\n  description: d\n  clauses: ["
                    + ",".join(["SET-1"] * 1_000_000) + "]\n")
    assert main(["lint", str(path)]) == 1
    out = capsys.readouterr()
    assert (f"{path}:3: a file holds at most 100,000 values (keys, items and scalars; a "
            "fixture writes some 20 to 60): the first past that is here; split it into "
            "files") in out.out + out.err


def test_a_block_list_past_the_bound_is_refused_at_the_first_value_past_it(
        tmp_path: Path) -> None:
    path = tmp_path / "list.yaml"
    path.write_text("".join(f"- {n}\n" for n in range(yamlload.MAX_WRITTEN + 5)))
    with pytest.raises(yamlload.SpecError) as raised:
        yamlload.load(path)
    # the list is the first value, item k (from 1) the k+1th: the one past is on line
    # MAX_WRITTEN (its item MAX_WRITTEN)
    assert raised.value.line == yamlload.MAX_WRITTEN
    # at the bound it loads: the bound is a number of values, not of bytes
    path.write_text("".join(f"- {n}\n" for n in range(yamlload.MAX_WRITTEN - 1)))
    assert len(yamlload.load(path).data) == yamlload.MAX_WRITTEN - 1


def test_a_flow_mapping_of_empty_keys_counts_each_key_and_value(tmp_path: Path) -> None:
    # `{?,?,...}`: each `?,` writes an empty key and an empty value, two values in two
    # characters: a text is scanned from MAX_WRITTEN characters on, not from more
    half = yamlload.MAX_WRITTEN // 2 + 1
    path = tmp_path / "keys.yaml"
    path.write_text("{" + ",".join(["?"] * half) + "}")
    with pytest.raises(yamlload.SpecError, match="at most 100,000 values"):
        yamlload.load(path)


def test_a_string_of_a_million_characters_is_refused_at_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "long.yaml"
    path.write_text("- id: long-001\n  description: " + "a" * 1_000_000 + "\n")
    with pytest.raises(yamlload.SpecError) as raised:
        yamlload.load(path)
    assert str(raised.value) == (f"{path}:2: a value of 1,000,000 characters is too long (at "
                                 "most 65,536: a description, note or name is short)")
    rule_set = tmp_path / "rules.yaml"
    rule_set.write_text(f"name: {'x' * 70_000}\nbase: pagat\n")
    assert main(["rules", str(rule_set)]) == 2
    assert f"{rule_set}:1: a value of 70,000 characters" in capsys.readouterr().err


# --- 3. the zombies of what a subreaper adopted ----------------------------------------


# In a process of its own (this one may be a subreaper with zombies of its own): it adopts
# an orphan in a session of its own that then ends, and holds a Popen of its own that has
# ended (started in a session of its own too) and not yet been waited for. One engine
# started and killed later, the orphan's zombie is reaped; the Popen's is left to its
# owner, whose wait still reads its code.
ADOPTER = textwrap.dedent("""
    import os, subprocess, sys, time
    from mtrain.conformance import child

    def state(pid):
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                return f.read().rsplit(b")", 1)[-1].split()[0].decode()
        except OSError:
            return "gone"

    def until(pid, wanted):
        for _ in range(6000):
            if state(pid) == wanted:
                return
            time.sleep(0.01)
        raise SystemExit(f"{pid} never {wanted}")

    child.adopt_orphans()
    read, write = os.pipe()
    subprocess.run([sys.executable, "-c", "import os, sys, time\\n"
                    "if os.fork() == 0:\\n"
                    "    os.setsid(); os.write(int(sys.argv[1]), b'%d\\\\n' % os.getpid())\\n"
                    "    time.sleep(0.2); os._exit(0)\\n", str(write)], pass_fds=[write],
                   check=True)
    orphan = int(os.read(read, 64))
    held = subprocess.Popen([sys.executable, "-c", "raise SystemExit(7)"],
                            start_new_session=True)
    until(orphan, "Z")
    until(held.pid, "Z")
    engine = child.ChildProcess(["cat"], 1024, None, None)
    engine.kill()
    print(state(orphan), state(held.pid), held.wait(10))
""")


@linux
def test_an_adopted_orphan_that_ended_is_reaped_as_engines_come_and_go(
        tmp_path: Path) -> None:
    script = tmp_path / "adopter.py"
    script.write_text(ADOPTER)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    # the orphan reaped (gone), the Popen's zombie left (Z) for its wait, which reads 7
    assert done.stdout.split() == ["gone", "Z", "7"], done.stdout


# --- 4. rule-set files: a break YAML 1.1 reads and 1.2 does not; a key read as null ------


@pytest.mark.parametrize("char, what", [("\x85", "U+0085 (NEL)"),
                                        ("\u2028", "U+2028 (a line separator)"),
                                        ("\u2029", "U+2029 (a paragraph separator)")])
def test_a_break_only_yaml_1_1_reads_is_refused_at_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], char: str, what: str) -> None:
    # PyYAML read `base: nope` as a key of its own (a comment ended there): a YAML 1.2
    # reader, or an editor, sees it inside the comment and the file builds on pagat
    path = tmp_path / "rules.yaml"
    path.write_text(f"name: mine\n# a comment{char}base: nope\nbase: pagat\n")
    assert main(["rules", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"mtrain rules: {path}:2: character {what} ends a line to YAML 1.1 (and so here) "
        "and is text to YAML 1.2 and most editors: end the line with a plain newline, or "
        "delete it")


def test_a_fixture_file_with_a_nel_is_refused_by_lint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fx.yaml"
    path.write_text("- id: nel-001\x85  description: d\n")
    assert main(["lint", str(path)]) == 1
    out = capsys.readouterr()
    assert f"{path}:1: character U+0085 (NEL) ends a line" in out.out + out.err


def test_a_key_read_as_null_is_said_in_words(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text("name: mine\nbase: pagat\n~: 1\n")
    with pytest.raises(yamlload.SpecError) as raised:
        yamlload.load(path)
    assert str(raised.value) == (f"{path}:3: key '~' is read as null (None); mapping keys "
                                 "must be strings or integers (quote it to make it a string)")


# --- 5. an output that is a FIFO nobody reads ------------------------------------------


FIXTURES = Path(__file__).parent / "data" / "fixtures" / "basic" / "play.yaml"
REFERENCE = f"{Path(sys.executable).with_name('mtrain')} serve"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX's")
def test_a_fifo_nobody_reads_as_the_output_is_an_error_not_a_hang(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from mtrain.conformance import outputs

    monkeypatch.setattr(outputs, "FIFO_WAIT", 0.2)
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    # opened as a file, the FIFO waited for a reader for ever, at the run's end
    rc = main(["conform", "--impl", REFERENCE, "--fixtures", str(FIXTURES), "--output",
               str(fifo), "-k", "basic-001", "--variant", "pagat"])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert (f"mtrain conform: --output {fifo}: a FIFO no process read within 0.2 s (start "
            "its reader first)") in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX's")
def test_a_fifo_with_its_reader_gets_the_report(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    try:
        rc = main(["conform", "--impl", REFERENCE, "--fixtures", str(FIXTURES), "--output",
                   str(fifo), "--format", "json", "-k", "basic-001", "--variant", "pagat"])
        got, _ = reader.communicate(timeout=60)
    finally:
        if reader.poll() is None:
            reader.kill()
            reader.wait()
    capsys.readouterr()
    assert rc == 0
    assert b'"basic-001"' in got


# --- 6. a timeout of 1e300 seconds --------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["conform", "--impl", "x", "--timeout", "1e300"],
    ["conform", "--impl", "x", "--start-timeout", "86401"],
    ["identify", "--impl", "x", "--timeout", "1e300"],
    ["fuzz", "--impl", "x", "--start-timeout", "1e300"],
])
def test_a_wait_past_a_day_is_a_usage_error(capsys: pytest.CaptureFixture[str],
                                            argv: list[str]) -> None:
    # read as given, an engine that never answered held the run for ever
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    assert f"must be at most 86,400 seconds (a day): '{argv[-1]}'" in capsys.readouterr().err


def test_fuzz_refuses_a_request_timeout_past_a_day(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--impl", "x", "--timeout", "1e300"]) == 2
    assert capsys.readouterr().err == ("mtrain fuzz: error: --timeout must be at most 86,400 "
                                       "seconds (a day) (see 'mtrain fuzz --help')\n")


# --- 7. a hello of 300,000 unknown variants; a hello naming a file of the harness's folder


def test_unknown_variants_past_the_few_told_are_counted_without_composing_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from mtrain.conformance import declaration
    from mtrain.spec.catalog import catalog

    cat = catalog()
    composed: list[str] = []
    compose = cat.ruleset

    def counted(spec: str | Path, *args: object, **kwargs: object) -> object:
        composed.append(str(spec))
        return compose(spec, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cat, "ruleset", counted)
    names = [f"v{i}" for i in range(2000)] + ["pagat+nope", "puremco+blanks-25", "pagat"]
    said = declaration.unknown_variants({"variants": names})
    # 2,000 v's and pagat+nope are no rule set: five told, the rest counted
    assert len(said) == 6 and said[5] == (
        "the hello's variants name 1,996 more that are no rule set here")
    # each v past the five told was counted at a glance (a hello of 300,000 names took
    # 35 s, each one's error built in full): composed were the five and the names whose
    # first word is a variant
    assert composed == ["v0", "v1", "v2", "v3", "v4", "pagat+nope", "puremco+blanks-25",
                        "pagat"]


HELLO_NAMING = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {broken!r})
    from _base import run

    def hook(n, request, answer):
        if n == 1:
            hello = json.loads(answer)
            hello["variants"] = [sys.argv[1], "pagat"]
            return (json.dumps(hello) + "\\n").encode()
        return answer

    run(hook)
""")


@pytest.mark.parametrize("name", ["notes.txt", "sub/rules.yaml", "house.yaml"])
def test_a_hello_naming_a_file_of_the_harness_folder_is_a_name_no_rule_set_has(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        name: str) -> None:
    # the harness's folder holds a file of that name, which is no rule-set file: it was
    # read as one, and the run ended on its YAML error, blaming the file
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    for path in ("notes.txt", "sub/rules.yaml", "house.yaml"):
        (tmp_path / path).write_text("a: b: c\n")
    engine = tmp_path / "engine.py"
    engine.write_text(HELLO_NAMING.format(broken=str(Path(__file__).parent / "broken_impls")))
    rc = main(["conform", "--impl", f"{sys.executable} {engine} {name}", "--fixtures",
               str(FIXTURES), "-k", "basic-001", "--variant", "pagat"])
    said = capsys.readouterr()
    err = said.out + said.err
    assert rc == 0, err  # run under pagat, which it names too
    assert (f"warning: the hello's variants name '{name}', which is no rule set here (a "
            "hello names variants, not files): nothing is run under it") in err


# --- 8. a state answer holding a hand of 400,000 tiles ---------------------------------


BIG_HAND = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {broken!r})
    from _base import run

    def hook(n, request, answer):
        reply = json.loads(answer)
        if "state" in reply:
            reply["state"]["hands"][0] = ["1-1"] * int(sys.argv[1])
        return (json.dumps(reply) + "\\n").encode()

    run(hook)
""")


def test_a_tile_list_longer_than_the_largest_set_is_refused_unread() -> None:
    from mtrain.conformance import protocol
    from mtrain.reference import codec
    from mtrain.reference.deal import deal
    from mtrain.reference.rules import Rules
    from mtrain.spec.catalog import catalog

    state = codec.state_to_json(deal(Rules.of(catalog().ruleset("pagat")), 3, 1, seed=1))
    for where in ("hands", "boneyard", "mexican"):
        big = json.loads(json.dumps(state))
        tiles = ["1-1"] * 400_000
        if where == "hands":
            big["hands"][1] = tiles
        elif where == "boneyard":
            big["boneyard"] = tiles
        else:
            big["mexican"]["tiles"] = tiles
        named = {"hands": "hands[1]", "boneyard": "boneyard", "mexican": "mexican.tiles"}
        with pytest.raises(protocol.ProtocolError) as raised:
            protocol.check_state(big, "apply.state")
        assert str(raised.value) == (f"apply.state.{named[where]} lists 400,000 tiles; no set "
                                     "has more than 190 (double-18): each tile once")
    protocol.check_state(state, "apply.state")  # a dealt state passes


def test_conform_says_a_hand_past_every_set_is_a_broken_answer(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the schema was walked tile by tile, to find each repeated: a hand of 400,000 took
    # 80 s; one of 191 said the same as any repeat
    engine = tmp_path / "engine.py"
    engine.write_text(BIG_HAND.format(broken=str(Path(__file__).parent / "broken_impls")))
    rc = main(["conform", "--impl", f"{sys.executable} {engine} 191", "--fixtures",
               str(FIXTURES), "-k", "basic-002", "--variant", "pagat"])
    out = capsys.readouterr().out
    assert rc == 1
    assert ("wrong answer shape to the apply request: apply.state.hands[0] lists 191 tiles; "
            "no set has more than 190 (double-18): each tile once") in out
