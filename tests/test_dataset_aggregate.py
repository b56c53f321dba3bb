"""``dataset.aggregate`` writes Spark's own operators (keyBy/mapValues/reduceByKey): each case
converts a DataSet program, runs the conversion on Spark and compares its records with Flink's
Python ``AggregationFunction`` (``flink/functions/Aggregation.py`` of the Flink 1.x Python API,
restated below as the reference), run over the group in input order (Flink's order at
parallelism 1 for a whole data set; inside a group Flink's order is its sorter's, so the grouped
cases hold groups whose result does not depend on it)."""

from __future__ import annotations

import math

import pytest

from flink2spark.transpiler.engine import convert_source

HEAD = "from flink.plan.Environment import get_environment\nfrom flink.functions import Aggregation\n\nenv = get_environment()\n"


def flink_aggregate(records, aggregations, key=None):
    """Flink's AggregationFunction.reduce per group (groups in first-seen order)."""
    groups: dict = {}
    for record in records:
        groups.setdefault(key(record) if key else None, []).append(record)
    results = []
    for group in groups.values():
        state = [0 if name == "sum" else None for name, _ in aggregations]
        item = None
        for x in group:
            if item is None:
                item = list(x)
            for i, (name, field) in enumerate(aggregations):
                value, agg = x[field], state[i]
                if name == "sum":
                    agg += value
                elif agg != None:  # noqa: E711 - as Flink writes it
                    if (value < agg) if name == "min" else (value > agg):
                        agg = value
                else:
                    agg = value
                state[i] = agg
        for (name, field), agg in zip(aggregations, state):
            item[field] = agg
        results.append(tuple(item))
    return results


def run_converted(spark, records, chain):
    data = repr(records).replace("nan", 'float("nan")')
    source = HEAD + f"data = env.from_elements(*{data})\nresult = data{chain}\n"
    result = convert_source(source, "job.py")
    assert result.status == "converted", [m.message for m in result.markers]
    assert "f2s" not in result.output, result.output
    namespace: dict = {}
    exec(compile(result.output, "job.py", "exec"), namespace)
    return namespace["result"].collect()


def same(a, b):
    """Equal records, NaN equal to NaN, -0.0 told from 0.0 and 1 from True/1.0."""
    def norm(v):
        if isinstance(v, float):
            return ("float", "nan" if math.isnan(v) else repr(v))
        return (type(v).__name__, v)
    return [tuple(norm(v) for v in r) for r in a] == [tuple(norm(v) for v in r) for r in b]


WHOLE = [
    # other fields come from the FIRST record, not from the extreme one
    ([("a", 1, "x"), ("b", 5, "y"), ("c", 3, "z")], ".max(1)", [("max", 1)]),
    ([("a", 1, "x"), ("b", 5, "y"), ("c", 3, "z")], ".min(1)", [("min", 1)]),
    ([("k", 1, 10, 0.5), ("k", 4, 7, 1.5), ("k", 2, 30, 1.0)],
     ".aggregate(Aggregation.Sum, 1).and_agg(Aggregation.Max, 2).and_agg(Aggregation.Min, 3)",
     [("sum", 1), ("max", 2), ("min", 3)]),
    # the last aggregation on a field wins
    ([("a", 3), ("b", 1), ("c", 2)], ".sum(1).and_agg(Aggregation.Min, 1)", [("sum", 1), ("min", 1)]),
    ([("a", 3), ("b", 1), ("c", 2)], ".min(1).and_agg(Aggregation.Sum, 1)", [("min", 1), ("sum", 1)]),
    # Sum starts at int 0: True sums to 1, -0.0 to 0.0; lists come out as tuples
    ([(True,)], ".sum(0)", [("sum", 0)]),
    ([(-0.0,), (-0.0,)], ".sum(0)", [("sum", 0)]),
    ([[1, "a"], [2, "b"]], ".max(0)", [("max", 0)]),
    # ties keep the value seen first; NaN compares false
    ([(1, "a"), (1.0, "b"), (0.5, "c"), (0.5, "d")], ".max(0)", [("max", 0)]),
    ([(float("nan"), 0), (1.0, 1), (0.5, 2)], ".min(0)", [("min", 0)]),
    ([(1.0, 0), (float("nan"), 1), (0.5, 2)], ".min(0)", [("min", 0)]),
    # floats summed in input order, as Flink's loop rounds them
    ([(x,) for x in [1e16, 1.0, 1.0, 1.0, -1e16, 0.1, 0.2, 0.3] * 3], ".sum(0)", [("sum", 0)]),
]


@pytest.mark.parametrize("records,chain,aggregations", WHOLE)
def test_whole_data_set_aggregate_gives_flinks_record(spark, records, chain, aggregations):
    got = run_converted(spark, records, chain)
    assert same(got, flink_aggregate(records, aggregations))


GROUPED = [
    ([("n", 3, 10), ("s", 7, 4), ("n", 5, 1), ("e", 2, 8), ("s", 1, 6), ("n", 4, 5), ("e", 9, 2)],
     ".group_by(0).aggregate(Aggregation.Sum, 2).and_agg(Aggregation.Max, 1)", [("sum", 2), ("max", 1)]),
    ([("n", 3, 10), ("s", 7, 4), ("n", 5, 1), ("e", 2, 8)], ".group_by(0).min(1).and_agg(Aggregation.Sum, 2)",
     [("min", 1), ("sum", 2)]),
    ([(1, "a", 2), (1, "a", 3), (2, "b", 4)], ".group_by(0, 1).sum(2)", [("sum", 2)]),
    ([(k % 3, k, True) for k in range(40)], ".group_by(lambda t: t[0]).sum(2).and_agg(Aggregation.Max, 1)",
     [("sum", 2), ("max", 1)]),
]


@pytest.mark.parametrize("records,chain,aggregations", GROUPED)
def test_grouped_aggregate_gives_flinks_records(spark, records, chain, aggregations):
    key = (lambda t: t[0]) if "group_by(0)" in chain or "lambda" in chain else (lambda t: (t[0], t[1]))
    got = run_converted(spark, records, chain)
    assert sorted(got, key=repr) == sorted(flink_aggregate(records, aggregations, key), key=repr)


def test_grouping_kept_in_a_variable_converts(spark):
    records = [("a", 1), ("b", 2), ("a", 3)]
    source = HEAD + f"data = env.from_elements(*{records!r})\ngroups = data.group_by(0)\nresult = groups.sum(1)\n"
    result = convert_source(source, "job.py")
    assert result.status == "converted" and "f2s" not in result.output, result.output
    namespace: dict = {}
    exec(compile(result.output, "job.py", "exec"), namespace)
    assert sorted(namespace["result"].collect()) == [("a", 4), ("b", 2)]


def test_field_that_is_not_a_literal_index_is_a_todo():
    source = HEAD + "FIELD = 1\nresult = env.from_elements((1, 2)).sum(FIELD)\n"
    result = convert_source(source, "job.py")
    assert any(m.code == "F2S100" and "literal index" in m.message for m in result.markers)
