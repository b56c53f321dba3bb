"""Record what Flink 2.3 gives for every case of tests/table_expressions_cases.py.

Runs in the reference venv (``.venv-flink``, see tests/flink_reference.py), one JVM for all
cases::

    .venv-flink/bin/python tests/table_expressions_reference.py [OUT.json]

(default OUT: tests/data/table_expressions_flink.json; tests/test_table_expressions.py runs it
through ``flink_reference.run_on_flink``). For each case and each row set (MAIN, EDGE), the
values by row (normalized with ``table_expressions_cases.normalize``) and Flink's result type,
or the first line of the error when the job fails. The cases of a row set run as one batch
``select``; when it fails, the set is halved until the failing cases are alone.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import table_expressions_cases as cases  # noqa: E402
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment  # noqa: E402
from pyflink.table import expressions  # noqa: E402
from pyflink.table.expression import TimeIntervalUnit  # noqa: E402

OUT = HERE / "data" / "table_expressions_flink.json"


def plain(value):
    """PyFlink Row -> list (then ``normalize``)."""
    if type(value).__name__ == "Row":
        return [plain(v) for v in value]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def namespace() -> dict:
    ns = {name: getattr(expressions, name) for name in dir(expressions) if not name.startswith("_")}
    ns.update(DataTypes=DataTypes, TimeIntervalUnit=TimeIntervalUnit)
    return ns


def first_line(exc: BaseException) -> str:
    """The innermost cause of a Java error (its first line), else the message's first line."""
    text = str(exc)
    causes = [line for line in text.splitlines() if line.startswith("Caused by: ")]
    if causes:
        text = causes[-1][len("Caused by: "):]
    else:
        lines = [line for line in text.splitlines() if line.strip() and not line.startswith("An error occurred while")]
        text = lines[0] if lines else type(exc).__name__
    return re.sub(r"\bo\d+\b", "o<N>", text.strip())[:300]  # py4j object ids vary between runs


def run(env, table, sources: list[str], kind: str, ns: dict, out: dict, rowset: str) -> None:
    if kind == "order":  # one order_by per case
        for src in sources:
            try:
                with table.order_by(eval(src, ns)).select(expressions.col("k")).execute().collect() as results:
                    out.setdefault(src, {})[rowset] = {"values": [r[0] for r in results]}
            except Exception as exc:  # noqa: BLE001
                out.setdefault(src, {})[rowset] = {"error": first_line(exc)}
        return
    exprs, kept = [], []
    for src in sources:
        try:
            exprs.append(eval(src, ns).alias(f"c{len(exprs)}"))
            kept.append(src)
        except Exception as exc:  # noqa: BLE001 - PyFlink refuses to build the expression
            out.setdefault(src, {})[rowset] = {"error": first_line(exc)}
    sources = kept
    if not sources:
        return
    try:
        if kind == "agg":
            result = table.select(*exprs)
        else:
            result = table.select(expressions.col("k"), *exprs)
        types = [str(t) for t in result.get_schema().get_field_data_types()]
        with result.execute().collect() as results:
            rows = [plain(list(r)) for r in results]
    except Exception as exc:  # noqa: BLE001 - the engine's error is the recorded result
        if len(sources) == 1:
            out.setdefault(sources[0], {})[rowset] = {"error": first_line(exc)}
            return
        half = len(sources) // 2
        run(env, table, sources[:half], kind, ns, out, rowset)
        run(env, table, sources[half:], kind, ns, out, rowset)
        return
    if kind != "agg":
        rows.sort(key=lambda r: r[0])
        types = types[1:]
    for n, src in enumerate(sources):
        column = [r[n + (0 if kind == "agg" else 1)] for r in rows]
        entry = {"type": types[n], "values": [cases.normalize(v) for v in column]}
        if kind != "agg":
            entry["rows"] = [r[0] for r in rows]
        out.setdefault(src, {})[rowset] = entry


def main(argv: list[str]) -> int:
    out_path = Path(argv[1]) if len(argv) > 1 else OUT
    env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    env.get_config().set("parallelism.default", "1")
    ns = namespace()
    schema = DataTypes.ROW([DataTypes.FIELD(name, eval(flink, ns)) for name, flink, _ in cases.COLUMNS])
    recorded: dict = {}
    for rowset, rows in (("main", cases.MAIN), ("edge", cases.EDGE)):
        table = env.from_elements(rows, schema)
        for kind in ("scalar", "agg", "order"):
            sources = [src for src, _, k in cases.CASES if k == kind]
            run(env, table, sources, kind, ns, recorded, rowset)
    document = {
        "engine": "apache-flink 2.3.0 (batch mode, parallelism 1)",
        "cases_sha256": cases.recording_digest(),
        "cases": {src: recorded[src] for src, _, _ in cases.CASES},
    }
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(document, indent=1, sort_keys=False, ensure_ascii=False) + "\n")
    print(f"recorded {len(document['cases'])} cases to {out_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
