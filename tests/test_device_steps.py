"""scripts/device_steps.sh, the steps one-call device scripts share, on the CPU: a script's log and files reach the
one tar in $OUT after each pack, the seconds left count down, and an A copy of the installed package carries the
swapped TileLang file. (device_build runs gpu_check.sh's build, which only the device call exercises.)"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_with_fake_sanitizer(tmp_path: Path, fake_body: str, script: str) -> tuple[Path, Path]:
    """Runs `script` (bash, from the repo root) with a stand-in compute-sanitizer whose body is `fake_body` first on
    PATH; returns ($OUT, $W)."""
    out, work, bin_dir = tmp_path / "out", tmp_path / "w", tmp_path / "bin"
    out.mkdir()
    bin_dir.mkdir()
    fake = bin_dir / "compute-sanitizer"
    fake.write_text("#!/bin/bash\n" + fake_body)
    fake.chmod(0o755)
    env = {"OUT": str(out), "DEVICE_WORK": str(work), "PATH": f"{bin_dir}:{Path(sys.executable).parent}:/usr/bin:/bin"}
    result = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return out, work


def with_fake_python(body: str, steps: str) -> str:
    """A script that sources device_steps.sh, begins a 60 s device script and runs `steps` with a stand-in `python`
    first on PATH: it makes its last argument's directory (the bench's --out) as $out, then runs `body`."""
    return f"""
source scripts/device_steps.sh
device_begin probe 60
mkdir -p "$W/fakebin"
printf '#!/bin/bash\\nout=${{@: -1}}; mkdir -p "$out"; %s\\n' '{body}' > "$W/fakebin/python"
chmod +x "$W/fakebin/python"
PATH="$W/fakebin:$PATH"
{steps}
"""


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_device_steps_pack_every_step_into_one_tar(tmp_path):
    out, work, copy = tmp_path / "out", tmp_path / "w", tmp_path / "A"
    out.mkdir()
    swapped = tmp_path / "descriptors.py"
    swapped.write_text("# the A arm's file\n")
    script = f"""
source scripts/device_steps.sh
device_begin probe 60
echo "first step"
echo 1 > "$W/step1.csv"; pack
package_copy {copy} {swapped}
echo "left $(left)"
"""
    env = {"OUT": str(out), "DEVICE_WORK": str(work), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    result = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    with tarfile.open(out / "probe.tar") as tar:
        names = tar.getnames()
        assert "w/step1.csv" in names and "w/console.log" in names
    assert (copy / "operator_runtime/tilelang/descriptors.py").read_text() == "# the A arm's file\n"
    assert (copy / "operator_runtime/__init__.py").exists()
    log = (work / "console.log").read_text()
    assert "first step" in log and f"{copy} ready" in log
    left = int(log.split("left ")[1].split()[0])
    assert 0 < left <= 60


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_ab_twice_and_sanitize_pair(tmp_path):
    # ab_twice runs A, B, A, B with the A arm first on PYTHONPATH and each run's own output path; sanitize_pair
    # runs both tools on the same pytest arguments and prints each log's summary (a stand-in compute-sanitizer here).
    script = f"""
source scripts/device_steps.sh
device_begin probe 60
A_DIR={tmp_path / "A"}
ab_twice arm 5 5 bash -c 'echo "${{PYTHONPATH%%:*}}" > "$1.txt"' _ '$AB_OUT'
sanitize_pair tests/ops/test_softmax.py -k bfloat16
cp "$W/racecheck.log" "$W/racecheck-nvidia.log"
SANITIZE_BACKEND=tilelang sanitize_pair tests/ops/test_softmax.py -k cluster
"""
    out, work = run_with_fake_sanitizer(
        tmp_path, 'echo "tool $2: $*"\necho "3 passed in 0.1s"\necho "========= ERROR SUMMARY: 0 errors"\n', script)
    for i in (1, 2):
        assert (work / f"arm-A-{i}.txt").read_text().strip() == str(tmp_path / "A")
        assert (work / f"arm-B-{i}.txt").read_text().strip() != str(tmp_path / "A")
    log = (work / "console.log").read_text()
    assert [line.split(" rc=")[0] for line in log.splitlines() if line.startswith("arm ")] == \
        ["arm A 1", "arm B 1", "arm A 2", "arm B 2"]
    assert "memcheck: 3 passed" in log and "racecheck: 3 passed" in log and "ERROR SUMMARY: 0 errors" in log
    racecheck = (work / "racecheck-nvidia.log").read_text()
    assert "tool racecheck" in racecheck and "kns=native" in racecheck and "-k bfloat16 --backend nvidia" in racecheck
    assert "-k cluster --backend tilelang" in (work / "racecheck.log").read_text()
    with tarfile.open(out / "probe.tar") as tar:
        assert "w/memcheck.log" in tar.getnames()


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_sanitize_shards_report_finished_and_cut_shards(tmp_path):
    # sanitize_start runs one tool over one shard in the background, its own log per (tool, shard); sanitize_wait
    # waits for them and reports pytest's summary, or, for a shard its bound cut, how many tests it had finished.
    script = """
source scripts/device_steps.sh
device_begin probe 60
sanitize_start memcheck whole tests/ops/test_copy.py
sanitize_start racecheck cut tests/ops/test_softmax.py -k cut
sanitize_wait
"""
    out, work = run_with_fake_sanitizer(
        tmp_path, 'echo "tool $2: $*"\necho "t.py::a PASSED"\necho "t.py::b PASSED"\n'
        'if [[ "$*" == *cut* ]]; then exit 124; fi\n'  # the bound's exit, before any summary
        'echo "2 passed in 0.1s"\necho "========= RACECHECK SUMMARY: 0 hazards displayed"\n', script)
    log = (work / "console.log").read_text()
    assert "memcheck-whole: 2 passed in 0.1s; RACECHECK SUMMARY: 0 hazards displayed" in log
    assert "racecheck-cut: cut after 2 passed, 0 failed;" in log
    racecheck = (work / "racecheck-cut.log").read_text()
    assert "kns=native" in racecheck and "-k cut --backend nvidia -v" in racecheck
    assert "kns=native" not in (work / "memcheck-whole.log").read_text()
    with tarfile.open(out / "probe.tar") as tar:
        assert {"w/memcheck-whole.log", "w/racecheck-cut.log"} <= set(tar.getnames())


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_deselect_finished_names_what_a_cut_run_passed_or_skipped(tmp_path):
    log = tmp_path / "pytest-tilelang.log"
    log.write_text(
        "[gw3] [ 12%] PASSED tests/ops/test_copy.py::test_a[float32-4096] \n"
        "[gw1] [ 13%] SKIPPED tests/ops/test_copy.py::test_b[nvidia] \n"
        "[gw0] [ 14%] FAILED tests/ops/test_copy.py::test_c[bfloat16] \n"
        "tests/fuzz/test_fuzz_ops.py::test_d PASSED                    [ 15%]\n"
        "[gw2] [ 15%] PASSED tests/ops/test_copy.py::test_a[float32-4096] \n"
    )
    script = (
        f"source scripts/device_steps.sh; deselect_finished {log} {tmp_path}/absent.log; "
        "printf '%s\\n' \"${DESELECT[@]}\""
    )
    result = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:-1] == [
        "--deselect", "tests/fuzz/test_fuzz_ops.py::test_d",
        "--deselect", "tests/ops/test_copy.py::test_a[float32-4096]",
        "--deselect", "tests/ops/test_copy.py::test_b[nvidia]",
    ]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_ab_summary_prints_each_arms_rows(tmp_path):
    work = tmp_path / "w"
    for arm, us in (("A-1", 65.5), ("B-1", 60.0)):
        (work / f"rs-{arm}").mkdir(parents=True)
        row = {"case": "rows-1024x65536", "dtype": "float32", "us_median": us, "torch_us": 65.0, "compile_us": 60.5}
        (work / f"rs-{arm}" / "bench.rows.jsonl").write_text(json.dumps(row) + "\n")
    env = {"DEVICE_WORK": str(work), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    script = "source scripts/device_steps.sh; W=$DEVICE_WORK; ab_summary rs"
    result = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].split()[:4] == ["rs-A-1", "rows-1024x65536", "float32", "ours"]
    assert "65.50" in lines[0] and lines[0].endswith("x0.9924")
    assert "60.00" in lines[1] and "compile    60.50" in lines[1] and lines[1].endswith("x1.0833")


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_ab_ratio_keeps_ops_apart_and_divides_the_bests(tmp_path):
    # Two ops share a case id (softmax and vector_add both bench 1008x2304): the ratio must not mix their rows.
    work = tmp_path / "w"
    times = {"A-1": (4.4, 4.8), "B-1": (4.2, 4.9), "A-2": (4.3, 4.7), "B-2": (4.1, 5.0)}
    for arm, (softmax_us, add_us) in times.items():
        (work / f"bench-{arm}").mkdir(parents=True)
        rows = [{"op": op, "case": "1008x2304", "dtype": "float16", "us_median": us}
                for op, us in (("softmax", softmax_us), ("vector_add", add_us))]
        (work / f"bench-{arm}" / "bench.rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    env = {"DEVICE_WORK": str(work), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    script = "source scripts/device_steps.sh; W=$DEVICE_WORK; ab_ratio bench"
    result = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = {tuple(line.split()[:3]): line.split()[-1] for line in result.stdout.splitlines()[1:]}
    assert lines == {("softmax", "1008x2304", "float16"): f"{4.3 / 4.1:.3f}",
                     ("vector_add", "1008x2304", "float16"): f"{4.7 / 4.9:.3f}"}


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_sweep_summary_prints_every_arm_of_each_sweep(tmp_path):
    work = tmp_path / "w"
    work.mkdir()
    (work / "short.csv").write_text("dtype,rows,n,arm0_us,armw_us,best_over_main\n"
                                    "float32,8192,32,1.073,0.900,1.192\nfloat16,64,32,0.651,0.692,0.941\n")
    (work / "cut.csv").write_text("dtype,rows,n,arm0_us,armw_us,best_over_main\nfloat32,64,32,0.7,,\n")
    env = {"DEVICE_WORK": str(work), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    script = "source scripts/device_steps.sh; W=$DEVICE_WORK; sweep_summary short cut missing"
    result = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "== short: dtype n rows, arm0_us armw_us, main / best other",
        "float32 32 8192 1.073 0.900 1.192",
        "float16 32 64 0.651 0.692 0.941",
        "== cut: dtype n rows, arm0_us armw_us, main / best other",  # a row without its last arm is left out
    ]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_switch_twice_runs_each_value_twice_in_turn_into_its_own_directory(tmp_path):
    # A stand-in `python` writes the switch's value and its arguments where '$AB_OUT' pointed; the order of the lines
    # in the console is the order the arms ran.
    script = with_fake_python('echo "$ORT_X $*" > "$out/seen.txt"', """
switch_twice few ORT_X "0 12" 5 python -m operator_runtime bench --out '$AB_OUT'
switch_twice late ORT_X "0" 100 python '$AB_OUT'""")
    out, work = run_with_fake_sanitizer(tmp_path, "", script)
    for value in ("0", "12"):
        for run in (1, 2):
            seen = (work / f"few-{value}-{run}" / "seen.txt").read_text().split()
            assert seen[0] == value and seen[-1] == str(work / f"few-{value}-{run}")
    log = (work / "console.log").read_text()
    order = [line.split()[1:3] for line in log.splitlines() if line.startswith("few ")]
    assert order == [["0", "1"], ["12", "1"], ["0", "2"], ["12", "2"]]
    # 100 s an arm needs 200 left: the step says so instead of starting an arm the script's bound would cut
    assert "late 0 1 skipped" in log and not (work / "late-0-1").exists()


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bench_ops_runs_each_op_into_its_own_directory(tmp_path):
    # bench_ops runs the bench once an op with both backends and every peer, and reports each op's rows; a stand-in
    # `python` records its arguments and writes one row.
    script = with_fake_python('echo "$*" > "$out/args.txt"; echo "{}" > "$out/bench.rows.jsonl"',
                              "bench_ops reduce_sum copy")
    out, work = run_with_fake_sanitizer(tmp_path, "", script)
    for op in ("reduce_sum", "copy"):
        args = (work / op / "args.txt").read_text().split()
        assert args[:4] == ["-m", "operator_runtime", "bench", "--op"] and args[4] == op
        assert "tilelang" in args and "liger" in args and "compile" in args
    log = (work / "console.log").read_text()
    assert log.count("rows=1") == 2
    with tarfile.open(out / "probe.tar") as tar:
        assert any(name.endswith("copy/args.txt") for name in tar.getnames())


def test_pytest_tally_counts_a_runs_outcomes_and_packs_its_log(tmp_path):
    # pytest_tally runs pytest -v into $W/pytest-NAME.log and reports its status and counts; a stand-in `python`
    # prints three outcomes and fails as pytest does when a test fails.
    script = """
source scripts/device_steps.sh
device_begin probe 60
mkdir -p "$W/fakebin"
printf '#!/bin/bash\necho "$*" > "$W/args.txt"; echo "t::a PASSED"; echo "t::b SKIPPED"\n' > "$W/fakebin/python"
printf 'echo "t::c FAILED"; echo "FAILED t::c - boom"; echo "== 1 failed, 1 passed, 1 skipped =="; exit 1\n' \
  >> "$W/fakebin/python"
chmod +x "$W/fakebin/python"
PATH="$W/fakebin:$PATH" W=$W pytest_tally rs 10 tests/ops/test_reduce_sum.py --backend nvidia
"""
    out, work = run_with_fake_sanitizer(tmp_path, "", script)
    args = (work / "args.txt").read_text().split()
    assert args[:3] == ["-m", "pytest", "tests/ops/test_reduce_sum.py"] and "-v" in args and "nvidia" in args
    log = (work / "console.log").read_text()
    assert "rs rc=1" in log and "PASSED 1 SKIPPED 1 FAILED 1" in log
    assert "FAILED t::c - boom" in log and "1 failed, 1 passed, 1 skipped" in log
    with tarfile.open(out / "probe.tar") as tar:
        assert any(name.endswith("pytest-rs.log") for name in tar.getnames())


def collected(*args: str) -> list[str]:
    """The test ids pytest collects on nvidia for `args`, in its order."""
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", *args, "--backend", "nvidia",
                             "-p", "no:cacheprovider", "-p", "no:benchmark", "-p", "no:xdist"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    return [line for line in result.stdout.splitlines() if "::" in line]


def shard_ids(log: Path) -> list[str]:
    """The test ids a stand-in sanitizer's shard log shows it was given."""
    return [word for word in log.read_text().split() if "::" in word]


def run_shards(tmp_path: Path, steps: str) -> Path:
    """Runs device-script `steps` (sanitize_* calls) under a stand-in sanitizer that logs its arguments and one pass,
    then sanitize_wait; returns $W."""
    script = f"source scripts/device_steps.sh\ndevice_begin probe 60\n{steps}\nsanitize_wait\n"
    return run_with_fake_sanitizer(tmp_path, 'echo "tool $2: $*"\necho "1 passed in 0.1s"\n', script)[1]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_sanitize_spread_deals_the_collected_tests_into_shards(tmp_path):
    # Every test the arguments collect goes to exactly one of the N shards, in turn, so the shards differ in size by
    # one at most and each gets every Nth test of the file's order.
    work = run_shards(tmp_path, "sanitize_spread racecheck copy-f32 3 tests/ops/test_copy.py -k float32")
    ids = collected("tests/ops/test_copy.py", "-k", "float32")
    assert len(ids) > 3
    shards = [shard_ids(work / f"racecheck-copy-f32-0{i}.log") for i in range(3)]
    assert shards == [ids[i::3] for i in range(3)]
    assert "--kernel-name-exclude kns=native" in (work / "racecheck-copy-f32-00.log").read_text()
    assert "racecheck-copy-f32-02: 1 passed" in (work / "console.log").read_text()


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_sanitize_spread_starts_no_shard_without_tests(tmp_path):
    # With fewer tests than shards, the empty lists start nothing (pytest given no ids would run its default paths).
    ids = collected("tests/ops/test_backend_choice.py")
    assert 0 < len(ids) < 8
    work = run_shards(tmp_path, "sanitize_spread memcheck few 8 tests/ops/test_backend_choice.py\n"
                                "sanitize_spread memcheck none 2 tests/ops/test_backend_choice.py -k no_such_test")
    logs = sorted(work.glob("memcheck-few-*.log"))
    assert len(logs) == len(ids)
    assert sorted(i for log in logs for i in shard_ids(log)) == sorted(ids)
    assert not list(work.glob("memcheck-none-*.log"))
    assert "sanitize_spread none: pytest collected no tests" in (work / "console.log").read_text()


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_sanitize_suite_covers_the_suite_in_three_parts(tmp_path):
    # Part 1: memcheck over every shard; racecheck over all but softmax fp32 and fp16. Parts 2 and 3: racecheck over
    # softmax fp16 and fp32, each dealt into eight shards. Together each tool sees every test file of tests/ops and
    # tests/fuzz once, and racecheck every softmax test once.
    work = run_shards(tmp_path, 'sanitize_suite 1; sanitize_wait; ls "$W" > "$W/part1.txt"\n'
                                'sanitize_suite 2; sanitize_suite 3')
    part1 = {n.removesuffix(".log") for n in (work / "part1.txt").read_text().split() if "check-" in n}
    logs = {p.stem for p in work.glob("*check-*.log")}
    forms = ("fn", "out", "rounds", "rest")
    by_form = [f"softmax-{d}-{f}" for d in ("f32", "f16", "bf16") for f in forms]
    others = ["reduce_sum", "copy", "vector_add", "small", "fuzz"]
    raced_in_1 = [f"softmax-bf16-{f}" for f in forms]
    dealt = {f"racecheck-softmax-part{p}-0{i}" for p in (2, 3) for i in range(8)}
    assert part1 == {f"memcheck-{s}" for s in by_form + others} | {f"racecheck-{s}" for s in others + raced_in_1}
    assert logs - part1 == dealt
    small = (work / "memcheck-small.log").read_text()
    files = sorted(p.name for p in (ROOT / "tests/ops").glob("test_*.py"))
    assert all((f in small) == (f not in {"test_softmax.py", "test_reduce_sum.py", "test_copy.py",
                                          "test_vector_add.py"}) for f in files)
    assert "-k (float32) and (functional) --backend nvidia" in (work / "memcheck-softmax-f32-fn.log").read_text()
    # racecheck sees each softmax test once: part 1's shards by their -k expressions, parts 2 and 3's by their ids
    softmax = "tests/ops/test_softmax.py"
    in_part1 = []
    for name in raced_in_1:
        k = (work / f"racecheck-{name}.log").read_text().split(" -k ")[1].split(" --backend ")[0]
        in_part1 += collected(softmax, "-k", k)
    raced = in_part1 + [i for name in sorted(dealt) for i in shard_ids(work / f"{name}.log")]
    assert len(raced) == len(set(raced)) and set(raced) == set(collected(softmax))
