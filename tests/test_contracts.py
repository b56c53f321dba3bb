"""Rule results are explicit (transpiler/results.py): a rewrite, REMOVE, a TODO the rule wrote
or a reason to keep the call; the engine refuses anything else, ``None`` above all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from flink2spark.transpiler import markers as M
from flink2spark.transpiler.engine import convert_source
from flink2spark.transpiler.registry import all_rules
from flink2spark.transpiler.results import STRICT_ENV, Keep, RuleContractError, Todo

ROOT = Path(__file__).resolve().parent.parent
RULES = {r.id: r for r in all_rules()}

JOB = (
    "from flink.plan.Environment import get_environment\n\n"
    "env = get_environment()\n"
    "env.from_elements(1, 2).map(lambda x: x + 1).output()\n"
)


def _sources() -> list[tuple[str, str]]:
    """(name, source) of every fixture (input and converted snapshot), example and rule example."""
    found = [(str(p.relative_to(ROOT)), p.read_text()) for p in sorted(ROOT.glob("fixtures/*/*/*.py")) if p.name in ("input.py", "converted.py")]
    found += [(str(p.relative_to(ROOT)), p.read_text()) for p in sorted(ROOT.glob("examples/*.py"))]
    for rule in RULES.values():
        for i, example in enumerate(rule.examples):
            found += [(f"{rule.id}[{i}].before", example.before), (f"{rule.id}[{i}].after", example.after)]
        found += [(f"{rule.id}[noop{i}]", source) for i, source in enumerate(rule.noop)]
    return found


def test_no_rule_result_is_silent_on_fixtures_examples_and_rule_examples(monkeypatch):
    """Every rule says what became of each construct it matched on every program the tests hold:
    no F2S008 (outside strict mode, so that every offender of a file is listed)."""
    monkeypatch.delenv(STRICT_ENV)
    sources = _sources()
    assert len(sources) > 300
    refused = [f"{name}:{mk.line}: {mk.message}" for name, source in sources for mk in convert_source(source, "job.py").markers if mk.code == M.NO_RESULT]
    assert not refused, "\n".join(refused)


def _with_result(monkeypatch, result):
    """dataset.simple_ops (``map``) returning ``result(ctx)``."""
    monkeypatch.setattr(RULES["dataset.simple_ops"], "convert", result)


def test_none_leaves_a_todo_at_the_call_outside_strict_mode(monkeypatch):
    monkeypatch.delenv(STRICT_ENV)
    _with_result(monkeypatch, lambda ctx: None)
    result = convert_source(JOB, "job.py")
    assert [mk.code for mk in result.markers if mk.severity == "todo"] == [M.NO_RESULT]
    assert result.status == "partial"
    assert ".map(lambda x: x + 1)" in result.output  # left where it was
    assert "# TODO(flink2spark): F2S008 rule dataset.simple_ops gave no result for this call (returned None" in result.output


def test_none_raises_in_strict_mode(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    _with_result(monkeypatch, lambda ctx: None)
    with pytest.raises(RuleContractError, match=r"rule dataset\.simple_ops gave no result \(returned None\)"):
        convert_source(JOB, "job.py")


@pytest.mark.parametrize(
    "result,why",
    [
        (lambda ctx: Todo(M.DS_UNSUPPORTED, "not written"), "a TODO result without a TODO written"),
        (lambda ctx: ctx.todo_left(), "a TODO result without a TODO written"),
        (lambda ctx: ctx.keep(" "), "kept with no reason"),
        (lambda ctx: "ds.map(f)", "returned 'ds.map(f)'"),
    ],
    ids=["todo-not-written", "todo-left-without-todo", "keep-without-reason", "a-string"],
)
def test_results_that_say_nothing_are_refused(monkeypatch, result, why):
    monkeypatch.setenv(STRICT_ENV, "1")
    _with_result(monkeypatch, result)
    with pytest.raises(RuleContractError, match=re.escape(why)):
        convert_source(JOB, "job.py")
    monkeypatch.delenv(STRICT_ENV)
    assert [mk.code for mk in convert_source(JOB, "job.py").markers if mk.severity == "todo"] == [M.NO_RESULT]


def test_a_todo_result_leaves_the_call_with_its_marker(monkeypatch):
    _with_result(monkeypatch, lambda ctx: ctx.todo(M.DS_UNSUPPORTED, "map() by hand"))
    result = convert_source(JOB, "job.py")
    assert [(mk.code, mk.message) for mk in result.markers if mk.severity == "todo"] == [(M.DS_UNSUPPORTED, "map() by hand")]
    assert ".map(lambda x: x + 1)" in result.output


def test_todo_left_returns_the_todo_a_helper_wrote(monkeypatch):
    def convert(ctx):
        ctx.todo(M.DS_FUNCTION, "written by a helper")
        left = ctx.todo_left()
        assert left == Todo(M.DS_FUNCTION, "written by a helper")
        return left

    _with_result(monkeypatch, convert)
    result = convert_source(JOB, "job.py")
    assert [mk.code for mk in result.markers if mk.severity == "todo"] == [M.DS_FUNCTION]


def test_a_kept_call_stays_with_no_marker(monkeypatch):
    kept = []

    def convert(ctx):
        kept.append(ctx.keep("converted with the output() that reads it"))
        return kept[-1]

    _with_result(monkeypatch, convert)
    result = convert_source(JOB, "job.py")
    assert kept == [Keep("converted with the output() that reads it")]
    assert ".map(lambda x: x + 1)" in result.output
    assert not [mk for mk in result.markers if mk.severity == "todo"]


def test_each_generation_model_is_a_frozen_dataclass_the_engine_reads_without_getattr():
    """The engine reads a generation's model through the named fields of ``GenerationModel``
    (transpiler/generation.py), with defaults for what a generation lacks, never by probing
    a module for optional attributes."""
    import dataclasses

    from flink2spark.transpiler.generation import GenerationModel
    from flink2spark.transpiler.models import MODELS

    assert set(MODELS) == {"dataset", "pyflink"}
    for model in MODELS.values():
        assert isinstance(model, GenerationModel)
        with pytest.raises(dataclasses.FrozenInstanceError):
            model.API_NAME = "x"  # type: ignore[misc]
    dataset, pyflink = MODELS["dataset"], MODELS["pyflink"]
    assert (dataset.API_NAME, dataset.SHIM_NAME, dataset.QUALIFIED_PREFIXES) == ("DataSet", "dataset", ("flink.",))
    assert (pyflink.API_NAME, pyflink.SHIM_NAME, pyflink.QUALIFIED_PREFIXES) == ("PyFlink DataStream", "datastream", ("pyflink.",))
    # DataSet has none of PyFlink's extras: the defaults
    assert dataset.call_return is None and dataset.stream_kind is None and dataset.check_class is None
    assert not dataset.CODES and dataset.table_bridge is None and dataset.KEEP_NAMES and not dataset.ANY_CALLABLE
    assert callable(pyflink.table_bridge) and not pyflink.KEEP_NAMES and pyflink.ANY_CALLABLE and callable(pyflink.stream_kind)
    probes = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in [ROOT / "cli.py", *sorted((ROOT / "transpiler").glob("*.py")), *sorted((ROOT / "rules").rglob("*.py"))]
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"getattr\([^,]*model\b", line)
    ]
    assert not probes, probes


def test_a_generation_model_names_only_fields_it_has():
    """``GenerationModel.of`` fails on a missing constant and on a name that is no field (a
    misspelt one would otherwise leave the default in place)."""
    from flink2spark.transpiler import pyflink_model as P
    from flink2spark.transpiler.generation import GenerationModel

    namespace = vars(P)
    assert GenerationModel.of(namespace, "HINTS").HINTS is P.HINTS
    with pytest.raises(TypeError, match="HINT"):
        GenerationModel.of({**namespace, "HINT": {}}, "HINT")
    with pytest.raises(KeyError, match="ENTRY_POINTS"):
        GenerationModel.of({k: v for k, v in namespace.items() if k != "ENTRY_POINTS"})


def test_a_converted_program_calling_the_shim_was_converted_by_a_rule_listed_as_shim():
    """``flink2spark rules`` lists a rule as native or shim from its examples (``Rule.form``).
    Cross-check on every fixture and example program: an output that calls the runtime shim
    (``f2s.``, ``f2s_stream.``, ``f2s_io.``) was produced with at least one rule listed as shim,
    so a rule that emits shim code its examples do not show is caught here. Flink names the
    conversion renames to the shim's (``Row`` -> ``f2s.Row``, ``NAME_MAP`` of each generation
    model) are no rule's doing and are not counted."""
    from flink2spark.transpiler.models import MODELS

    renamed = {name for model in MODELS.values() for _, name in model.NAME_MAP.values()}
    call = re.compile(r"\bf2s(?:_\w+)?\.(\w+)")

    def shim_call(output):
        lines = (line for line in output.splitlines() if not line.lstrip().startswith("#"))
        return any(name not in renamed for line in lines for name in call.findall(line))

    inputs = [(n, s) for n, s in _sources() if n.startswith(("fixtures/", "examples/")) and not n.endswith("converted.py")]
    assert len(inputs) > 100
    unexplained = []
    for name, source in inputs:
        result = convert_source(source, "job.py")
        if shim_call(result.output) and not any(RULES[r].form == "shim" for r in result.rules_applied):
            unexplained.append(f"{name}: rules {sorted(set(result.rules_applied))}")
    assert not unexplained, "\n".join(unexplained)
    forms = {r.form for r in RULES.values()}
    assert forms == {"native", "shim"}
