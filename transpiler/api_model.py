"""A model of the legacy Flink DataSet Python API (flink.plan / flink.functions, Flink 0.9-1.8).

Read from the API's own source (PyPI ``flink==1.0``): which classes exist, what each method
returns, which names each module exports. The engine uses it to know which expressions are
Flink objects; rules never match on a method name alone.
"""

from __future__ import annotations

from typing import Optional

from flink2spark.transpiler.functions import CONVENTIONS  # noqa: F401 - how DataSet's operators call their functions (MODEL)
from flink2spark.transpiler.generation import SAME, GenerationModel, type_functions

API_NAME = "DataSet"
QUALIFIED_PREFIXES = ("flink.",)
SHIM_NAME = "dataset"  # flink2spark.runtime.dataset, imported as f2s

ENVIRONMENT = "Environment"
DATASET = "DataSet"
OPERATOR = "OperatorSet"  # result of a UDF operator: accepts with_broadcast_set
UNSORTED = "UnsortedGrouping"
SORTED = "SortedGrouping"
JOIN_WHERE = "JoinOperatorWhere"
JOIN_TO = "JoinOperatorTo"
JOIN = "JoinOperator"
PROJECTOR = "Projector"
CROSS = "CrossOperator"
COGROUP_WHERE = "CoGroupOperatorWhere"
COGROUP_TO = "CoGroupOperatorTo"
COGROUP_USING = "CoGroupOperatorUsing"
AGGREGATE = "AggregateOperator"
SINK = "DataSink"
RESULT = "JobExecutionResult"

# Subtype -> supertype (methods are inherited).
BASES: dict[str, str] = {
    OPERATOR: DATASET,
    JOIN: DATASET,
    PROJECTOR: DATASET,
    CROSS: DATASET,
    AGGREGATE: OPERATOR,
}

_DATASET_METHODS = {
    "output": SINK,
    "write_text": SINK,
    "write_csv": SINK,
    "reduce_group": OPERATOR,
    "reduce": OPERATOR,
    "aggregate": AGGREGATE,
    "min": AGGREGATE,
    "max": AGGREGATE,
    "sum": AGGREGATE,
    "project": OPERATOR,
    "group_by": UNSORTED,
    "co_group": COGROUP_WHERE,
    "cross": CROSS,
    "cross_with_huge": CROSS,
    "cross_with_tiny": CROSS,
    "distinct": OPERATOR,
    "filter": OPERATOR,
    "first": OPERATOR,
    "flat_map": OPERATOR,
    "join": JOIN_WHERE,
    "join_with_huge": JOIN_WHERE,
    "join_with_tiny": JOIN_WHERE,
    "map": OPERATOR,
    "map_partition": OPERATOR,
    "partition_by_hash": OPERATOR,
    "rebalance": OPERATOR,
    "union": OPERATOR,
    "name": SAME,
    "set_parallelism": SAME,
    "count_elements_per_partition": OPERATOR,
    "zip_with_index": OPERATOR,
}

METHODS: dict[str, dict[str, Optional[str]]] = {
    ENVIRONMENT: {
        "read_csv": DATASET,
        "read_text": DATASET,
        "from_elements": DATASET,
        "generate_sequence": DATASET,
        "register_type": None,
        "set_parallelism": None,
        "get_parallelism": None,
        "set_degree_of_parallelism": None,  # Flink 0.9/0.10 name of set_parallelism
        "get_degree_of_parallelism": None,
        "set_number_of_execution_retries": None,
        "get_number_of_execution_retries": None,
        "execute": RESULT,
    },
    DATASET: _DATASET_METHODS,
    OPERATOR: {"with_broadcast_set": SAME},
    UNSORTED: {
        "reduce": OPERATOR,
        "reduce_group": OPERATOR,
        "aggregate": AGGREGATE,
        "min": AGGREGATE,
        "max": AGGREGATE,
        "sum": AGGREGATE,
        "first": OPERATOR,
        "sort_group": SORTED,
    },
    SORTED: {"first": OPERATOR, "reduce_group": OPERATOR, "sort_group": SORTED},
    JOIN_WHERE: {"where": JOIN_TO},
    JOIN_TO: {"equal_to": JOIN},
    JOIN: {"using": OPERATOR, "project_first": PROJECTOR, "project_second": PROJECTOR},
    PROJECTOR: {"project_first": PROJECTOR, "project_second": PROJECTOR},
    CROSS: {"using": OPERATOR, "project_first": PROJECTOR, "project_second": PROJECTOR},
    COGROUP_WHERE: {"where": COGROUP_TO},
    COGROUP_TO: {"equal_to": COGROUP_USING},
    COGROUP_USING: {"using": OPERATOR},
    AGGREGATE: {"and_agg": SAME},
    SINK: {"name": SAME, "set_parallelism": SAME},
    RESULT: {"get_net_runtime": None},
}

# Builder types: a call producing one of these, followed by one of the listed methods, is
# part of a larger construct that the rule of the chain's first call converts as a whole.
CONTINUATIONS: dict[str, frozenset[str]] = {
    JOIN_WHERE: frozenset({"where"}),
    JOIN_TO: frozenset({"equal_to"}),
    JOIN: frozenset({"using", "project_first", "project_second"}),
    PROJECTOR: frozenset({"project_first", "project_second"}),
    CROSS: frozenset({"using", "project_first", "project_second"}),
    COGROUP_WHERE: frozenset({"where"}),
    COGROUP_TO: frozenset({"equal_to"}),
    COGROUP_USING: frozenset({"using"}),
    SORTED: frozenset({"sort_group", "first", "reduce_group"}),
    AGGREGATE: frozenset({"and_agg", "with_broadcast_set", "name", "set_parallelism"}),
    OPERATOR: frozenset({"with_broadcast_set", "name", "set_parallelism"}),
}
# Builder types that are not data sets: they must be continued.
INCOMPLETE = frozenset({JOIN_WHERE, JOIN_TO, COGROUP_WHERE, COGROUP_TO, COGROUP_USING, SORTED})

# Continuation methods handled by the engine for any chain (modifiers of the chain's result).
MODIFIERS = frozenset({"with_broadcast_set", "name", "set_parallelism"})


supertypes, method_return = type_functions(BASES, METHODS)


def is_dataset(t: Optional[str]) -> bool:
    return t is not None and DATASET in supertypes(t)


# Qualified names of module-level callables and what they return.
ENTRY_POINTS = {"flink.plan.Environment.get_environment": ENVIRONMENT}

# What each Flink module exports (for star imports and for leftovers).
EXPORTS: dict[str, tuple[str, ...]] = {
    "flink.plan.Environment": ("get_environment", "Environment"),
    "flink.plan.Constants": ("INT", "LONG", "FLOAT", "STRING", "BOOL", "BYTES", "WriteMode", "Order"),
    "flink.plan.DataSet": ("DataSet",),
    "flink.functions.Aggregation": ("Sum", "Min", "Max", "AggregationFunction"),
}

# User function base classes: class qualified name -> (kind, method, value params, collector)
FUNCTION_CLASSES: dict[str, tuple[str, str]] = {}
for _name, _method in {
    "MapFunction": "map",
    "FlatMapFunction": "flat_map",
    "FilterFunction": "filter",
    "MapPartitionFunction": "map_partition",
    "ReduceFunction": "reduce",
    "GroupReduceFunction": "reduce",
    "JoinFunction": "join",
    "CrossFunction": "cross",
    "CoGroupFunction": "co_group",
    "KeySelectorFunction": "get_key",
}.items():
    FUNCTION_CLASSES[f"flink.functions.{_name}.{_name}"] = (_name, _method)
    EXPORTS[f"flink.functions.{_name}"] = (_name,)
FUNCTION_CLASSES["flink.functions.Function.Function"] = ("Function", "")
EXPORTS["flink.functions.Function"] = ("Function",)

# Methods of user function classes that receive a collector, and their iterator parameters.
# kind -> {method: (number of value parameters, they are iterators)}
COLLECTOR_METHODS: dict[str, dict[str, tuple[int, bool]]] = {
    "FlatMapFunction": {"flat_map": (1, False)},
    "GroupReduceFunction": {"reduce": (1, True), "combine": (1, True)},
    "MapPartitionFunction": {"map_partition": (1, True)},
    "CoGroupFunction": {"co_group": (2, True)},
}

# read_csv field type constants -> Spark SQL type (the constants become these DDL names wherever
# they stand: rules/dataset/sources.py builds read_csv's schema of them)
CSV_TYPES = {
    "flink.plan.Constants.INT": "BIGINT",  # Python ints travel as Java Long
    "flink.plan.Constants.LONG": "BIGINT",
    "flink.plan.Constants.FLOAT": "DOUBLE",
    "flink.plan.Constants.STRING": "STRING",
    "flink.plan.Constants.BOOL": "BOOLEAN",
}

AGGREGATIONS = {
    "flink.functions.Aggregation.Sum": "sum",
    "flink.functions.Aggregation.Min": "min",
    "flink.functions.Aggregation.Max": "max",
}

ORDERS = {
    "flink.plan.Constants.Order.ASCENDING": False,
    "flink.plan.Constants.Order.DESCENDING": True,
}
WRITE_MODES = {
    "flink.plan.Constants.WriteMode.NO_OVERWRITE": 0,
    "flink.plan.Constants.WriteMode.OVERWRITE": 1,
}

# Flink names that map one to one onto a runtime-shim name (rewritten wherever they remain).
NAME_VALUES = {name: f'"{spark}"' for name, spark in CSV_TYPES.items()}
NAME_MAP = {
    "flink.plan.Constants.WriteMode": ("flink2spark.runtime.dataset", "WriteMode"),
    "flink.plan.Constants.Order": ("flink2spark.runtime.dataset", "Order"),
}


# Method names only Flink's DataSet API has (no list, pandas or RDD method of that name): in a
# Flink file, a call to one on a receiver whose type is unknown is marked, never left silently.
DISTINCTIVE_METHODS = frozenset({
    "from_elements", "generate_sequence", "read_csv", "read_text", "flat_map", "map_partition",
    "reduce_group", "group_by", "sort_group", "co_group", "join_with_huge", "join_with_tiny",
    "cross_with_huge", "cross_with_tiny", "zip_with_index", "with_broadcast_set", "and_agg",
    "project_first", "project_second", "equal_to", "write_csv", "partition_by_hash",
    "set_number_of_execution_retries", "register_type", "count_elements_per_partition",
})



# What the engine reads of this generation (transpiler/generation.py): the constants above of
# the fields' names, and the optional NAME_VALUES.
MODEL = GenerationModel.of(globals(), "NAME_VALUES")
