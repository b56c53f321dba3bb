"""The JSON report of ``flink2spark convert --report`` and the end-of-run summary."""

from __future__ import annotations

import json
from collections import Counter
from typing import Iterable

from flink2spark.transpiler.result import ConversionResult

REPORT_VERSION = 1  # kept at 1: readers that check it still accept the report
# 2: totals.rules and totals.codes, and the "command" key (also in `--output-format json`)
SCHEMA_VERSION = 2
STATUSES = ("converted", "partial", "unchanged", "error")
SEVERITIES = ("note", "todo", "error")
_PLURAL = {"note": "notes", "todo": "todos", "error": "errors"}


def totals(results: Iterable[ConversionResult]) -> dict[str, int]:
    """Files per status and markers per severity.

    ``error`` counts files that could not be converted, ``errors`` counts error markers.
    """
    results = list(results)
    counts = {"files": len(results)}
    counts.update({status: 0 for status in STATUSES})
    counts.update({_PLURAL[sev]: 0 for sev in SEVERITIES})
    for result in results:
        counts[result.status] += 1
        for marker in result.markers:
            counts[_PLURAL[marker.severity]] += 1
    return counts


def rule_and_code_counts(results: Iterable[ConversionResult]) -> dict[str, dict[str, int]]:
    """``rules``: rule id -> times applied; ``codes``: marker code -> markers; both sorted by key."""
    results = list(results)
    rules = Counter(rule for result in results for rule in result.rules_applied)
    codes = Counter(marker.code for result in results for marker in result.markers)
    return {"rules": dict(sorted(rules.items())), "codes": dict(sorted(codes.items()))}


def build_report(results: Iterable[ConversionResult], command: str = "convert") -> dict:
    results = list(results)
    return {
        "version": REPORT_VERSION,
        "schema_version": SCHEMA_VERSION,
        "command": command,
        "files": [result.to_json() for result in results],
        "totals": {**totals(results), **rule_and_code_counts(results)},
    }


def report_json(results: Iterable[ConversionResult]) -> str:
    return json.dumps(build_report(results), indent=2, sort_keys=False) + "\n"


def summary_table(results: Iterable[ConversionResult]):
    """A rich Table: files per status, then markers per severity."""
    from rich.table import Table

    counts = totals(results)
    table = Table(title="flink2spark convert", title_justify="left", show_edge=False)
    table.add_column("status", justify="left")
    table.add_column("files", justify="right")
    table.add_column("severity", justify="left")
    table.add_column("markers", justify="right")
    rows_left = [(status, counts[status]) for status in STATUSES] + [("total", counts["files"])]
    rows_right = [(sev, counts[_PLURAL[sev]]) for sev in SEVERITIES]
    for i, (status, n) in enumerate(rows_left):
        sev, m = rows_right[i] if i < len(rows_right) else ("", "")
        table.add_row(status, str(n), sev, str(m))
    return table
