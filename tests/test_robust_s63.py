"""Bad inputs and misbehaving engines, round 36 (robust-s63): an engine that kills its
reaper and then its new parent, the harness; the zombies a subreaper adopts from a Popen
that is starting; and those of a killed harness's pool workers."""

from __future__ import annotations

import json
import os
import shlex
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "data" / "fixtures" / "basic" / "play.yaml"
BROKEN = HERE / "broken_impls"
MTRAIN = str(Path(sys.executable).with_name("mtrain"))


def _seccomp() -> bool:
    try:
        return "Seccomp:" in Path("/proc/self/status").read_text()
    except OSError:
        return False


linux = pytest.mark.skipif(not sys.platform.startswith("linux")
                           or not hasattr(os, "pidfd_open"), reason="subreapers are Linux's")
guarded = pytest.mark.skipif(not sys.platform.startswith("linux") or not _seccomp()
                             or os.uname().machine not in ("x86_64", "aarch64"),
                             reason="the guard is a seccomp filter of x86_64 and aarch64")


# --- 1. an engine that kills its reaper, then the harness --------------------------------


# The reference, but at request K it kills its parent (the reaper), waits to be adopted,
# and kills its parent again: the harness, a subreaper. What each kill did goes to OUT;
# at request K + 1 it exits (code 5), a crash of that request.
PARRICIDE = textwrap.dedent("""
    import os, signal, sys, time
    sys.path.insert(0, {broken!r})
    from _base import run

    out, k = sys.argv[1], int(sys.argv[2])

    def kill(pid):
        try:
            os.kill(pid, signal.SIGKILL)
            return "killed"
        except OSError as e:
            return type(e).__name__

    def hook(n, request, answer):
        if n == k:
            reaper = os.getppid()
            said = [kill(reaper)]
            for _ in range(2000):  # adopted by the harness once the reaper is gone
                if os.getppid() != reaper:
                    break
                time.sleep(0.005)
            said.append(kill(os.getppid()))
            with open(out, "w") as f:
                f.write(" ".join(said))
        if n == k + 1:
            os._exit(5)
        return answer

    run(hook)
""")


@guarded
@linux
def test_an_engine_that_killed_its_reaper_cannot_kill_the_harness(tmp_path: Path) -> None:
    # the harness, a subreaper, became the engine's parent: its second kill(getppid())
    # killed the harness (exit -9, no report). Run apart, so that it is not pytest's end
    script = tmp_path / "parricide.py"
    script.write_text(PARRICIDE.format(broken=str(BROKEN)))
    said = tmp_path / "said"
    impl = shlex.join([sys.executable, str(script), str(said), "2"])
    done = subprocess.run([MTRAIN, "conform", "--impl", impl, "--fixtures", str(FIXTURES),
                           "--format", "json", "-k", "basic-001", "--variant", "pagat"],
                          capture_output=True, text=True, timeout=300)
    assert said.read_text() == "killed PermissionError"
    assert done.returncode == 1, (done.returncode, done.stderr)
    [result] = json.loads(done.stdout)["results"]
    assert result["status"] == "crash", result
    assert result["message"].startswith(
        "the implementation killed its parent, the harness's reaper"), result["message"]


# Under the reaper, what signal 0 (which sends nothing: it asks whether the signal could
# be sent) says of the harness, its group, every process at once, and the reaper
PROBE = textwrap.dedent("""
    import os, sys

    harness, group = int(sys.argv[1]), int(sys.argv[2])

    def probe(pid):
        try:
            os.kill(pid, 0)
            return "yes"
        except OSError as e:
            return type(e).__name__

    def opened(pid):
        try:
            os.close(os.pidfd_open(pid))
            return "yes"
        except OSError as e:
            return type(e).__name__

    print(probe(harness), probe(-group), probe(-1), probe(os.getppid()),
          probe(os.getpid()), opened(harness), opened(os.getppid()), flush=True)
    sys.stdin.read()
""")


@guarded
@linux
def test_the_engine_may_signal_anything_but_the_harness_its_group_and_all() -> None:
    from mtrain.conformance.child import ChildProcess

    engine = ChildProcess([sys.executable, "-c", PROBE, str(os.getpid()),
                           str(os.getpgid(0))], 1 << 16, None, None)
    try:
        line = engine.receive(60.0)
    finally:
        engine.kill()
    assert isinstance(line, bytes), line
    # refused: the harness, its group, all at once (-1), a pidfd of the harness; allowed:
    # its reaper, itself, a pidfd of its reaper
    assert line.split() == [b"PermissionError", b"PermissionError", b"PermissionError",
                            b"yes", b"yes", b"PermissionError", b"yes"], line


def test_the_filter_is_one_program_per_architecture_and_allows_the_rest() -> None:
    # classic BPF: 8 bytes an instruction, at most 4,096, and each jump inside it
    from mtrain.conformance import reaper

    program = reaper._filter(1234, 1200)
    assert len(program) % 8 == 0
    count = len(program) // 8
    assert count <= 4096
    for i in range(count):
        op, jt, jf, k = struct.unpack_from("=HBBI", program, 8 * i)
        if op == 0x15:
            assert i + 1 + max(jt, jf) < count, i
        if op == 0x05:  # (an unconditional jump: past an architecture's part)
            assert i + 1 + k < count, i
        if op == 0x20:  # the number, the architecture, the first to third arguments
            assert k in (0, 4, 16, 24, 32), k
    # the last instruction allows (an architecture the filter does not know)
    assert program[-8:] == struct.pack("=HBBI", 0x06, 0, 0, 0x7FFF0000)


# --- 2. a zombie of a Popen still starting (between its fork and its pid) -----------------


# In a process of its own (a subreaper): a Popen whose child (in a session of its own)
# ends before the Popen has set its pid, and reap_adopted called in that moment, as
# another thread's engine start or end may be. The Popen's wait must read the child's
# code (7), not 0 (the code subprocess takes where its zombie was reaped elsewhere).
STARTING = textwrap.dedent("""
    import os, subprocess, sys, time
    from mtrain.conformance import child

    def state(pid):
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                return f.read().rsplit(b")", 1)[-1].split()[0].decode()
        except OSError:
            return "gone"

    child.adopt_orphans()
    fork_exec = subprocess._fork_exec
    reaped = []

    def forked_then_reaped(*args):
        pid = fork_exec(*args)
        for _ in range(6000):  # until the child has ended (the exec done, its code 7)
            if state(pid) == "Z":
                break
            time.sleep(0.01)
        reaped.extend(child.reap_adopted())
        return pid

    subprocess._fork_exec = forked_then_reaped
    popen = subprocess.Popen([sys.executable, "-c", "raise SystemExit(7)"],
                             start_new_session=True)
    subprocess._fork_exec = fork_exec
    print(popen.wait(60), popen.pid in reaped)
""")


@linux
def test_the_zombie_of_a_popen_still_starting_is_left_to_its_popen(tmp_path: Path) -> None:
    script = tmp_path / "starting.py"
    script.write_text(STARTING)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["7", "False"], done.stdout


# --- 3. the zombies of a killed harness's pool workers (in this session) -----------------


# In a process of its own (a subreaper): a harness of this session makes a pool of two
# workers and is killed outright; its workers end as they find it gone (die_with) and are
# this process's zombies to reap. Its own worker, ended and not yet joined, is its own:
# left for its join, which reads its code (3).
POOL_ADOPTER = textwrap.dedent('''
    import multiprocessing, os, subprocess, sys, time
    from mtrain.conformance import adopted, child

    HARNESS = """
    import multiprocessing, os, time
    from mtrain.conformance import forking
    pool = forking.new_pool(multiprocessing.get_context("fork"), 2)
    pool.map(abs, range(4))
    print(*(p.pid for p in pool._pool), flush=True)
    time.sleep(600)
    """

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

    def own_worker():
        adopted.name_worker()
        raise SystemExit(3)

    if __name__ == "__main__":
        child.adopt_orphans()
        harness = subprocess.Popen([sys.executable, "-c", HARNESS], stdout=subprocess.PIPE)
        workers = [int(w) for w in harness.stdout.readline().split()]
        harness.kill()
        harness.wait()
        for pid in workers:
            until(pid, "Z")
        own = multiprocessing.get_context("fork").Process(target=own_worker)
        own.start()
        until(own.pid, "Z")
        reaped = child.reap_adopted()
        own.join(60)
        print(len(workers), *(state(pid) for pid in workers), sorted(reaped) == sorted(workers),
              own.exitcode)
''')


@linux
def test_a_killed_harness_pool_workers_are_reaped_and_ones_own_are_left(
        tmp_path: Path) -> None:
    script = tmp_path / "pool_adopter.py"
    script.write_text(POOL_ADOPTER)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0, done.stderr
    # both workers reaped (gone, not zombies: they stayed, being of this session), the
    # own worker's code read by its join
    assert done.stdout.split() == ["2", "gone", "gone", "True", "3"], done.stdout


# --- 4. a declared rule set's name: what a rule-set file may be called -------------------


# The reference, but its hello declares pagat's options under NAME (json), and the
# implementation's own name is IMPL (json)
NAMED_RULES = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {broken!r})
    from _base import run
    from mtrain.spec.catalog import catalog

    name, impl = json.loads(sys.argv[1]), json.loads(sys.argv[2])

    def hook(n, request, answer):
        if n == 1:
            hello = json.loads(answer)
            hello["rules"] = {{"options": dict(catalog().ruleset("pagat").choices)}}
            if name is not None:
                hello["rules"]["name"] = name
            hello["name"] = impl
            return (json.dumps(hello) + "\\n").encode()
        return answer

    run(hook)
""")


def _named(tmp_path: Path, name: str | None, impl: str = "eng") -> str:
    script = tmp_path / "named.py"
    script.write_text(NAMED_RULES.format(broken=str(BROKEN)))
    return shlex.join([sys.executable, str(script), json.dumps(name), json.dumps(impl)])


@pytest.mark.parametrize("name, said", [
    ("a\nb", "'a\\nb' is not a name on one line, not blank, without control characters "
             "(nor invisible or direction-changing ones)\n"),
    ("red\x1b[31m", "'red\\x1b[31m' is not a name on one line"),
    ("+\u202e", "'+\\u202e' is not a name on one line"),
    ("x" * 5000, "(5,000 characters) is longer than 1,000 characters (what reports call "
                 "the rule set)"),
])
def test_a_declared_rule_set_name_a_file_could_not_have_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, said: str) -> None:
    # read as given, a newline broke the report's row in two, an escape coloured the rest
    # of the report, and the rule set of a file of that name was refused
    from mtrain.cli import main

    rc = main(["conform", "--impl", _named(tmp_path, name), "--fixtures", str(FIXTURES),
               "-k", "basic-001"])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert "mtrain conform: the implementation's declared rules: `rules.name`: " in err
    assert said in err, err


def test_an_implementation_name_no_rule_set_could_have_is_not_its_rule_set_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # no `rules.name`: the rule set took the implementation's name, newline and all
    from mtrain.cli import main

    rc = main(["conform", "--impl", _named(tmp_path, None, "eng\nine"), "--fixtures",
               str(FIXTURES), "-k", "basic-001", "--format", "json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert [r["variant"] for r in json.loads(out)["results"]] == ["declared"]
    rc = main(["conform", "--impl", _named(tmp_path, None, "engine-9"), "--fixtures",
               str(FIXTURES), "-k", "basic-001", "--format", "json"])
    out = capsys.readouterr().out
    assert [r["variant"] for r in json.loads(out)["results"]] == ["engine-9"]


# --- 5. a declaration named after a shipped rule set it does not play --------------------


# The reference, its hello declaring the options of rule set BASE under the name NAME
NAMED_AFTER = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {broken!r})
    from _base import run
    from mtrain.spec.catalog import catalog

    name, base = sys.argv[1], sys.argv[2]

    def hook(n, request, answer):
        if n == 1:
            hello = json.loads(answer)
            hello["rules"] = {{"name": name,
                               "options": dict(catalog().ruleset(base).choices)}}
            return (json.dumps(hello) + "\\n").encode()
        return answer

    run(hook)
""")


@pytest.mark.parametrize("name, base, said", [
    ("pagat+blanks-25", "pagat", "(blank_values: face (its blank-25))"),
    ("pagat", "pagat+blanks-25", "(blank_values: blank-25 (its face))"),
    ("puremco-d9", "puremco", "(tile_set: double-12 (its double-9), hand_sizes: puremco-d12 "
                              "(its puremco-d9))"),
    ("pagat", "pagat", None),
    ("pagat+blanks-25", "pagat+blanks-25", None),
    ("pagat+nope", "pagat", None),  # no rule set's name: a label of its own
])
def test_a_declaration_named_after_a_shipped_rule_set_plays_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, base: str,
        said: str | None) -> None:
    # the reports called other rules by the shipped rule set's name, as a rule-set file
    # named `pagat` over other rules would (refused there: catalog._own_name)
    from mtrain.cli import main

    script = tmp_path / "named_after.py"
    script.write_text(NAMED_AFTER.format(broken=str(BROKEN)))
    rc = main(["conform", "--impl", shlex.join([sys.executable, str(script), name, base]),
               "--fixtures", str(FIXTURES), "--format", "json"])
    out, err = capsys.readouterr()
    if said is None:
        assert rc in (0, 1), err  # run under its declared rules (basic-* is pagat's)
        ran = [r["variant"] for r in json.loads(out)["results"]]
        assert set(ran) <= {name}, ran  # each result under the declared name
        assert ran or base != "pagat"  # pagat's rules run the basic fixtures
        return
    assert rc == 2, err
    assert err == (f"mtrain conform: the implementation's declared rules: `rules.name`: "
                   f"{name!r} is a shipped rule set's, whose rules differ {said}: give the "
                   "rules a name of their own\n"), err


# --- 6. lines ended by a carriage return alone ---------------------------------------------


# The reference, but from request 2 on each answer ends in "\r" (no "\n")
CR_ONLY = textwrap.dedent("""
    import sys
    sys.path.insert(0, {broken!r})
    from _base import run

    run(lambda n, request, answer: answer if n < 2 else answer.rstrip(b"\\n") + b"\\r")
""")


def test_answers_ended_by_a_carriage_return_alone_are_said_to_be(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # it was told as one unended line only, its answers run together
    from mtrain.cli import main

    script = tmp_path / "cr_only.py"
    script.write_text(CR_ONLY.format(broken=str(BROKEN)))
    rc = main(["conform", "--impl", f"{sys.executable} {script}", "--fixtures",
               str(FIXTURES), "-k", "basic-001", "--variant", "pagat", "--timeout", "2",
               "--format", "json"])
    [result] = json.loads(capsys.readouterr().out)["results"]
    assert rc == 1
    assert result["message"].startswith("no answer to the "), result["message"]
    assert ("; a carriage return (\\r) alone ends no line: end each with \\n)"
            in result["message"]), result["message"]
