"""Adding imports (transpiler/imports.py): the same statements where libcst's AddImportsVisitor
puts them, without walking the module; an import asked for twice is added once."""

from __future__ import annotations

import itertools

import libcst as cst
import pytest
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor

from flink2spark.transpiler import imports as I

HEADS = {
    "empty": "",
    "code only": "x = 1\n",
    "docstring": '"""Doc."""\nx = 1\n',
    "docstring then imports": '"""Doc."""\n\nimport os\nfrom pyspark.sql import Row\n\n\ndef f():\n    return os\n',
    "future": "from __future__ import annotations\n\nimport sys\n",
    "comment before code": "import os\n# a comment\nclass A:\n    pass\n",
    "blank line before code": "import os\n\nclass A:\n    pass\n",
    "same module, other names": "from pyspark.sql import Row\nfrom pyspark.sql import Column\nprint(Row)\n",
    "aliased already": "from pyspark.sql import functions as F\nimport numpy as np\nprint(F, np)\n",
    "star": "from pyspark.sql import *\nprint(Row)\n",
    "not at the top": "x = 1\nfrom pyspark.sql import Row\n",
    "two on a line": "import os; import sys\nx = 1\n",
    "relative": "from . import utils\nx = 1\n",
    "strict flag": "__strict__ = True\nimport os\n",
    "nested import": "def f():\n    from pyspark.sql import Row\n    return Row\n",
}

REQUESTS = [
    [("pyspark.sql", "SparkSession", None)],
    [("pyspark.sql", "functions", "F"), ("pyspark.sql", "SparkSession", None)],
    [("flink2spark.runtime", "datastream", "f2s"), ("flink2spark.runtime", "connectors", "f2s_io")],
    [("pyspark.sql", "Row", None), ("os", None, None)],
    [("numpy", None, "np"), ("json", None, None), ("collections", "OrderedDict", None)],
    [("__future__", "annotations", None), ("pyspark.sql", "Column", None)],
    [("zipfile", "ZipFile", "Z"), ("abc", "ABC", None)],  # modules with an alias come first
]


def libcst_result(source: str, wanted) -> str:
    context = CodemodContext()
    for module, obj, alias in wanted:
        AddImportsVisitor.add_needed_import(context, module, obj, alias)
    return AddImportsVisitor(context).transform_module(cst.parse_module(source)).code


def ours(source: str, wanted) -> str:
    context = I.Requests()
    for module, obj, alias in wanted:
        I.need(context, module, obj, alias)
    return I._add_imports(cst.parse_module(source), context).code


@pytest.mark.parametrize(
    "head,index", [pytest.param(h, i, id=f"{h}-{i}") for h, i in itertools.product(HEADS, range(len(REQUESTS)))]
)
def test_same_statements_as_libcst(head, index):
    source, wanted = HEADS[head], REQUESTS[index]
    assert ours(source, wanted) == libcst_result(source, wanted)


def test_asked_twice_added_once():
    wanted = [("flink2spark.runtime", "connectors", "f2s_io")] * 3 + [("pyspark.sql", "SparkSession", None)] * 2
    out = ours("x = 1\n", wanted)
    assert out.count("connectors as f2s_io") == 1 and out.count("SparkSession") == 1
    # libcst's visitor repeats the aliased one (why imports.need keeps a set)
    assert libcst_result("x = 1\n", wanted).count("connectors as f2s_io") == 3


def test_nothing_asked_returns_the_same_module():
    module = cst.parse_module("import os\nx = 1\n")
    assert I._add_imports(module, I.Requests()) is module


def test_flink_imports_in_one_line_suites():
    """``if x: import y``: an unused Flink import there is dropped, a used one gets its TODO above
    the statement holding it (it has no line of its own); both used to stay with no TODO."""
    from flink2spark.transpiler.engine import convert_source

    head = "from pyflink.datastream import StreamExecutionEnvironment\n"
    job = "env = StreamExecutionEnvironment.get_execution_environment()\nenv.from_collection([1, 2]).print()\n"
    unused = convert_source(head + "if True: from pyflink.common import Types\nt = [Types.INT()]\n" + job, "job.py")
    assert "pyflink" not in unused.output and "t = [f2s.Types.INT()]" in unused.output
    used = convert_source(head + "try: from pyflink.datastream import KeyedStream\nexcept ImportError: KeyedStream = None\n"
                          "def f(k: KeyedStream): pass\n" + job, "job.py")
    lines = used.output.splitlines()
    todo = next(i for i, line in enumerate(lines) if "F2S208 KeyedStream from pyflink.datastream" in line)
    assert lines[todo + 1].startswith("try: from pyflink.datastream import KeyedStream")
    assert [m.line for m in used.markers if m.code == "F2S208"] == [2]  # the try's line in the input
    for result in (unused, used):
        assert convert_source(result.output, "job.py").output == result.output


def test_names_asked_for_but_unused_are_not_imported():
    """A rule asks for a name the output then does not use (``Row`` of a function another rule
    rewrote as Columns): finish_imports adds only the used ones, and modules asked for whole."""
    context = I.Requests()
    for wanted in [("pyspark.sql", "Row", None), ("pyspark.sql", "SparkSession", None), ("pyspark.sql", "functions", "F"),
                   ("json", None, None)]:
        I.need(context, *wanted)
    out = I.finish_imports(cst.parse_module("spark = SparkSession.builder.getOrCreate()\n"), context).code
    assert "from pyspark.sql import SparkSession\n" in out and "import json\n" in out
    assert "Row" not in out and " F" not in out
