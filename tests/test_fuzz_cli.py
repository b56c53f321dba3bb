"""Fuzzing ``flink2spark convert`` (issues 16 and 17), bounded for CI.

The mutations, generators and checks are those of ``benchmarks/fuzz_cli.py`` (which runs more
cases, and the generators at full size): every case must end with status 0, 1 or 2 and no
traceback, write nothing outside ``--out``, copy files without Flink text byte for byte, write
outputs that parse, and give outputs that a second conversion leaves as they are. The number
of cases tried is printed (``capsys.disabled``: also without ``-s``).
"""

from __future__ import annotations

import collections
import importlib.util
import re
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flink2spark.transpiler.engine import convert_source

REPO = Path(__file__).resolve().parent.parent


def _load_fuzz_module():
    spec = importlib.util.spec_from_file_location("fuzz_cli", REPO / "benchmarks" / "fuzz_cli.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


fuzz = _load_fuzz_module()

CI_CASES = 100  # mutated fixtures per CI run (the benchmark script runs as many as asked)
TEXT_CASES = 50  # hypothesis-written text after a Flink import
CI_SETTINGS = dict(
    derandomize=True,  # the same cases on every run
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)
WORD_COUNT = REPO / "fixtures" / "dataset" / "word_count_lambda" / "input.py"


def report(capsys, line: str) -> None:
    with capsys.disabled():
        print(f"\n[fuzz] {line}")


def test_fixtures_are_there():
    assert len(fuzz.FIXTURES) >= 50 and WORD_COUNT in fuzz.FIXTURES


def test_mutated_fixtures(capsys):
    kinds_tried: collections.Counter = collections.Counter()
    outcomes: collections.Counter = collections.Counter()

    @settings(max_examples=CI_CASES, **CI_SETTINGS)
    @given(
        fixture=st.sampled_from(fuzz.FIXTURES),
        kinds=st.lists(st.sampled_from(sorted(fuzz.MUTATIONS)), min_size=1, max_size=3),
        seed=st.integers(0, 2**32 - 1),
    )
    def case(fixture, kinds, seed):
        with tempfile.TemporaryDirectory(prefix="f2s-fuzz-") as tmp:
            outcome = fuzz.convert_and_check(Path(tmp), fuzz.fixture_files(fixture, kinds, seed))
        kinds_tried.update(kinds)
        outcomes[outcome.label()] += 1

    case()
    tried = sum(outcomes.values())
    report(capsys, f"{tried} mutated fixtures tried; outcomes {dict(sorted(outcomes.items()))}")
    assert tried == CI_CASES
    assert set(kinds_tried) == set(fuzz.MUTATIONS)  # every mutation kind was tried
    # Both sides are reached: files that convert and files reported as bad input.
    assert any(label.startswith("exit 0") for label in outcomes)
    assert any(label.startswith("exit 2") for label in outcomes)


def test_hypothesis_text_after_a_flink_import(capsys):
    tried = []
    lines = st.one_of(
        st.text(max_size=40),
        st.sampled_from(fuzz.TOKENS),
        st.sampled_from(WORD_COUNT.read_text("utf-8").splitlines()),
    )

    @settings(max_examples=TEXT_CASES, **CI_SETTINGS)
    @given(body=st.lists(lines, max_size=8))
    def case(body):
        data = (fuzz.DATASET_HEAD + "\n".join(body) + "\n").encode("utf-8", "surrogatepass")
        with tempfile.TemporaryDirectory(prefix="f2s-fuzz-") as tmp:
            fuzz.convert_and_check(Path(tmp), {"fuzzed.py": data})
        tried.append(data)

    case()
    report(capsys, f"{len(tried)} hypothesis-written Flink files tried")
    assert len(tried) == TEXT_CASES


# Each mutation, applied so that its effect is known: the outcome the user gets.
KNOWN_MUTATIONS = {
    "bom": (b"\xef\xbb\xbf" + WORD_COUNT.read_bytes(), 0, "converted"),
    "crlf": (WORD_COUNT.read_bytes().replace(b"\n", b"\r\n"), 0, "converted"),
    "tabs": (re.sub(rb"(?m)^((?:    )+)", lambda m: b"\t" * (len(m.group(1)) // 4), WORD_COUNT.read_bytes()), 0, "converted"),
    "nul": (WORD_COUNT.read_bytes() + b"\x00", 2, "error F2S003"),
    "non_utf8": (WORD_COUNT.read_bytes() + b"# caf\xe9\n", 2, "error F2S003"),
    "utf16": (WORD_COUNT.read_text("utf-8").encode("utf-16"), 2, "error F2S003"),
    "truncated": (WORD_COUNT.read_bytes()[: WORD_COUNT.read_bytes().index(b"get_environment()") + 16], 2, "error F2S001"),
    "nesting_150": (WORD_COUNT.read_bytes() + b"deep = " + b"(" * 150 + b"1" + b")" * 150 + b"\n", 0, "converted"),
    # CPython accepts 200 nested parentheses, not 201: the converter goes as far as CPython.
    "nesting_200": (WORD_COUNT.read_bytes() + b"deep = " + b"(" * 200 + b"1" + b")" * 200 + b"\n", 0, "converted"),
    "nesting_201": (WORD_COUNT.read_bytes() + b"deep = " + b"(" * 201 + b"1" + b")" * 201 + b"\n", 2, "error F2S001"),
}


@pytest.mark.parametrize("name", sorted(KNOWN_MUTATIONS))
def test_known_mutation_outcomes(name, tmp_path):
    data, exit_code, status = KNOWN_MUTATIONS[name]
    outcome = fuzz.convert_and_check(tmp_path, {"fuzzed.py": data})
    assert (outcome.exit_code, outcome.statuses["fuzzed.py"]) == (exit_code, status)


# The generators of issue 17 at CI size: (exit status, report status of the file, seconds allowed).
GENERATOR_OUTCOMES = {
    "nested_parentheses": (2, "error F2S001", 30),  # CPython rejects it: no libcst crash
    "nested_parentheses_plain": (0, "unchanged", 30),  # no Flink text: copied as it is
    "nested_lists": (0, "converted", 60),
    "call_chain": (0, "converted", 60),
    "long_list": (0, "converted", 60),  # 2,000 elements here, 25,000 in the benchmark
    "large_plain": (0, "unchanged", 10),  # 5 MB without Flink text: copied byte for byte, quickly
}


@pytest.mark.parametrize("name", sorted(GENERATOR_OUTCOMES))
def test_generators(name, tmp_path, capsys):
    data = fuzz.generators(full=False)[name]
    exit_code, status, seconds = GENERATOR_OUTCOMES[name]
    start = time.perf_counter()
    outcome = fuzz.convert_and_check(tmp_path, {"fuzzed.py": data})
    took = time.perf_counter() - start
    report(capsys, f"generator {name} ({len(data):,} bytes): {outcome.label()} in {took:.1f} s (both conversions)")
    assert (outcome.exit_code, outcome.statuses["fuzzed.py"]) == (exit_code, status)
    assert took < seconds
    if name == "call_chain":
        assert (tmp_path / "out" / "fuzzed.py").read_text().count(".map(lambda x: x + ") == 250


def test_generators_are_the_sizes_of_issue_17():
    full = fuzz.generators(full=True)
    assert b"= " + b"(" * 1300 + b"1" + b")" * 1300 + b"\n" in full["nested_parentheses"]
    assert b"= " + b"[" * 120 + b"1" + b"]" * 120 + b"\n" in full["nested_lists"]
    assert full["call_chain"].count(b".map(") == 250
    assert full["long_list"].count(b",") >= 25_000 - 1
    assert len(full["large_plain"]) > 5_000_000 and b"flink" not in full["large_plain"]
    assert fuzz.generators(full=False)["long_list"].count(b",") < 3_000


# Found by benchmarks/fuzz_cli.py --cases 5000 --seed 17 (case 3573: configured_environment_batch
# with a line duplicated), reduced by hand.
REASSIGNED_CONFIGURED_ENV = """\
from pyflink.common import Configuration
from pyflink.datastream import StreamExecutionEnvironment

config = Configuration()
env = StreamExecutionEnvironment.get_execution_environment(config)
numbers = env.from_collection([1, 2])
env = StreamExecutionEnvironment.get_execution_environment(config)
numbers.print()
env.execute("job")
"""


def test_second_conversion_of_a_reassigned_configured_environment(tmp_path):
    """Found by the 5,006-case fuzz run: a Configuration given to two environments left both
    with a TODO while their uses were converted, and the second conversion then marked
    ``env.sparkContext``. Both environments now convert; and an environment left with its TODO
    (a configuration that cannot be followed) keeps the converted ``.sparkContext`` unmarked."""
    fuzz.convert_and_check(tmp_path, {"fuzzed.py": REASSIGNED_CONFIGURED_ENV.encode()})
    result = convert_source(REASSIGNED_CONFIGURED_ENV, "job.py")
    assert result.status == "converted" and result.output.count("SparkSession.builder.getOrCreate()") == 2
    unfollowed = REASSIGNED_CONFIGURED_ENV.replace("config = Configuration()", "config = load_config()")
    first = convert_source(unfollowed, "job.py")
    assert [m.code for m in first.markers if m.severity == "todo"].count("F2S200") == 2
    assert convert_source(first.output, "job.py").output == first.output


def test_installed_command_on_a_tree_of_mutants(tmp_path, capsys):
    """The real command (a separate process: a crash or a traceback would show) on one tree
    holding each mutation kind applied to several fixtures, and the small generators."""
    files = {}
    for index, kind in enumerate(sorted(fuzz.MUTATIONS)):
        for fixture in fuzz.FIXTURES[index % 7 :: 29]:
            files[f"{kind}/{fixture.parent.name}.py"] = fuzz.mutate(fixture.read_bytes(), [kind], index)
    for name, data in fuzz.generators(full=False).items():
        if name not in ("long_list", "call_chain"):  # the slow ones are tested above
            files[f"generated/{name}.py"] = data
    outcome = fuzz.convert_and_check(tmp_path, files, in_process=False)
    report(capsys, f"{len(files)} files converted by the installed command: exit {outcome.exit_code}, "
           f"{dict(collections.Counter(outcome.statuses.values()))}")
    assert len(outcome.statuses) == len(files)
    assert outcome.exit_code == 2  # the NUL and non-UTF-8 files at least
    assert {"converted", "error F2S003"} <= set(outcome.statuses.values())
