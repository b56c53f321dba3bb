"""``flink2spark assess``: what a migration would take, from a real conversion run in memory.

The command line converts each file with the same code path as ``convert`` (nothing is
written) and hands the ``ConversionResult`` list to :func:`assess`, which counts, per file, per
API generation and in total:

* **exact**: applications of exact rules (``ConversionResult.rules_applied``, the rule's
  ``exact`` flag in the registry): constructs that convert natively;
* **approximate**: applications of approximate rules (they convert, with a behaviour difference);
* **notes**: ``NOTE`` markers, each a difference to read and accept (written by approximate rules,
  and by exact rules whose target behaves differently in some detail);
* **todos**: ``TODO`` markers, constructs left as they are, to port by hand;
* **errors**: files that could not be read or parsed (they are listed, not assessed).

The estimate of the manual work is ``WEIGHTS``: minutes per NOTE, per TODO by code family
(longest code prefix wins) and per file in error. It is a planning figure, stated with the
numbers it comes from in every output format.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Iterable, Optional

from flink2spark.transpiler.files import shown
from flink2spark.transpiler.result import ConversionResult, Marker

ASSESS_VERSION = 1
GENERATIONS = ("dataset", "jython", "pyflink", "none")  # "none": no Flink import
COUNTS = ("exact", "approximate", "notes", "todos")


@dataclass(frozen=True)
class Weight:
    severity: str  # "note", "todo" or "error"
    prefix: str  # marker codes starting with this (the longest matching prefix wins)
    family: str
    minutes: int

    @property
    def label(self) -> str:
        """What is counted: ``NOTE``, ``TODO`` or ``error file``."""
        return "error file" if self.severity == "error" else self.severity.upper()


# Minutes of manual work, the one table the estimate comes from (README, "assess").
WEIGHTS: tuple[Weight, ...] = (
    Weight("note", "F2S", "NOTE: read the approximate rewrite, accept or adjust it", 5),
    Weight("error", "F2S", "file that could not be read or parsed: fix it, assess again", 15),
    Weight("todo", "F2S", "other TODO", 30),
    Weight("todo", "F2S0", "TODO on imports or a dropped rewrite (F2S0xx)", 30),
    Weight("todo", "F2S1", "DataSet API construct (F2S1xx)", 20),
    Weight("todo", "F2S2", "PyFlink DataStream construct (F2S2xx)", 20),
    Weight("todo", "F2S22", "PyFlink event time, watermarks, windows (F2S22x)", 45),
    Weight("todo", "F2S23", "PyFlink process function, state, connect, broadcast (F2S23x)", 60),
    Weight("todo", "F2S24", "PyFlink file/Java sources and sinks, settings (F2S24x)", 30),
    Weight("todo", "F2S25", "PyFlink Kafka and unbounded streams (F2S25x)", 60),
    Weight("todo", "F2S3", "PyFlink Table API and SQL construct (F2S3xx)", 30),
    Weight("todo", "F2S8", "API generation not converted: per Flink import (F2S8xx)", 60),
)


def weight(severity: str, code: str) -> Weight:
    """The row of ``WEIGHTS`` for a marker: its severity, the longest prefix of its code."""
    rows = [w for w in WEIGHTS if w.severity == severity and code.startswith(w.prefix)]
    return max(rows, key=lambda w: len(w.prefix))


class OutputFormat(str, Enum):
    text = "text"
    json = "json"
    html = "html"


@dataclass
class FileAssessment:
    path: str
    generation: Optional[str]  # one of GENERATIONS; None for a file in error (not parsed)
    status: str
    rules: dict[str, int]  # rule id -> applications
    exact: int
    approximate: int
    markers: list[Marker]

    @property
    def notes(self) -> int:
        return sum(m.severity == "note" for m in self.markers)

    @property
    def todos(self) -> int:
        return sum(m.severity == "todo" for m in self.markers)

    @property
    def error(self) -> bool:
        return self.status == "error"

    @property
    def minutes(self) -> int:
        return sum(w.minutes for w in self.weights() if w is not None)

    def weights(self) -> list[Optional[Weight]]:
        """The weight of each marker; None for the errors after a file's first (counted once)."""
        found, first_error = [], True
        for m in self.markers:
            found.append(weight(m.severity, m.code) if m.severity != "error" or first_error else None)
            first_error = first_error and m.severity != "error"
        return found

    def count(self, name: str) -> int:
        return getattr(self, name)

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "generation": self.generation,
            "status": self.status,
            "rules": dict(self.rules),
            **{name: self.count(name) for name in COUNTS},
            "minutes": self.minutes,
            "markers": [
                {**m.to_json(), "minutes": w.minutes if w is not None else 0}
                for m, w in zip(self.markers, self.weights())
            ],
        }


@dataclass
class EstimateLine:
    weight: Weight
    count: int

    @property
    def minutes(self) -> int:
        return self.weight.minutes * self.count


@dataclass
class Assessment:
    files: list[FileAssessment]
    estimate: list[EstimateLine] = field(default_factory=list)

    @property
    def minutes(self) -> int:
        return sum(line.minutes for line in self.estimate)

    def generation_counts(self, generation: str) -> dict[str, int]:
        """Files, construct counts and minutes of the files of one generation (errors excluded)."""
        group = [f for f in self.files if f.generation == generation]
        counts = {"files": len(group)}
        counts.update({name: sum(f.count(name) for f in group) for name in COUNTS})
        counts["minutes"] = sum(f.minutes for f in group)
        return counts

    def totals(self) -> dict[str, int]:
        counts = {"files": len(self.files), "error": sum(f.error for f in self.files)}
        counts.update({name: sum(f.count(name) for f in self.files) for name in COUNTS})
        counts["minutes"] = self.minutes
        return counts

    def to_json(self) -> dict:
        return {
            "version": ASSESS_VERSION,
            "files": [f.to_json() for f in self.files],
            "by_generation": {g: self.generation_counts(g) for g in GENERATIONS},
            "totals": self.totals(),
            "estimate": [
                {**_weight_json(line.weight), "count": line.count, "total_minutes": line.minutes}
                for line in self.estimate
            ],
            "weights": [_weight_json(w) for w in WEIGHTS],
        }


def _weight_json(w: Weight) -> dict:
    return {"severity": w.severity, "prefix": w.prefix, "family": w.family, "minutes": w.minutes}


def rule_kinds() -> dict[str, str]:
    """Rule id -> "exact" or "approximate", from the registry."""
    from flink2spark.transpiler.registry import all_rules

    return {rule.id: "exact" if rule.exact else "approximate" for rule in all_rules()}


def assess(results: Iterable[ConversionResult]) -> Assessment:
    """Count what the conversion did to each file, per generation and in total."""
    kinds = rule_kinds()
    files = []
    for result in results:
        rules: dict[str, int] = {}
        for rule_id in result.rules_applied:
            rules[rule_id] = rules.get(rule_id, 0) + 1
        files.append(
            FileAssessment(
                path=result.path,
                generation=None if result.status == "error" else result.generation or "none",
                status=result.status,
                rules=dict(sorted(rules.items())),
                exact=sum(n for rule_id, n in rules.items() if kinds.get(rule_id) == "exact"),
                approximate=sum(n for rule_id, n in rules.items() if kinds.get(rule_id) != "exact"),
                markers=list(result.markers),
            )
        )
    counted: dict[Weight, int] = {}
    for file in files:
        for row in file.weights():
            if row is not None:
                counted[row] = counted.get(row, 0) + 1
    estimate = [EstimateLine(w, counted[w]) for w in WEIGHTS if w in counted]
    return Assessment(files, estimate)


# --------------------------------------------------------------------------- output


def hours(minutes: int) -> str:
    return f"{minutes} min ({minutes / 60:.1f} h)"


def render(assessment: Assessment, output_format: OutputFormat | str) -> str:
    """The report as text, JSON or HTML."""
    output_format = OutputFormat(output_format)
    if output_format is OutputFormat.json:
        return json.dumps(assessment.to_json(), indent=2) + "\n"
    if output_format is OutputFormat.html:
        from flink2spark.transpiler.assess_html import render_html

        return render_html(assessment)
    return render_text(assessment)


def _columns(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.rjust(w) if i in right else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
        for row in rows
    ]


def file_rows(assessment: Assessment) -> list[list[str]]:
    """One row per file: path, generation, the counts and the minutes (``-`` for a file in error)."""
    rows = []
    for f in assessment.files:
        if f.error:
            rows.append([shown(f.path), "error", *["-"] * len(COUNTS), str(f.minutes)])
        else:
            rows.append([shown(f.path), f.generation or "none", *[str(f.count(n)) for n in COUNTS], str(f.minutes)])
    return rows


FILE_HEADERS = ["file", "generation", "exact", "approx", "notes", "todos", "est. min"]


def render_text(assessment: Assessment) -> str:
    lines = _columns([FILE_HEADERS, *file_rows(assessment)], right={2, 3, 4, 5, 6})
    lines.append("")
    kinds = rule_kinds()
    for f in assessment.files:
        if not f.rules and not f.markers:
            continue
        lines.append(f"{shown(f.path)} ({'error' if f.error else f.generation})")
        if f.rules:
            lines.append("  rules: " + ", ".join(_rule_text(rule_id, n, kinds) for rule_id, n in f.rules.items()))
        for m in f.markers:
            label = "error" if m.severity == "error" else m.severity.upper()
            lines.append(f"  {m.line}:{m.col}: {label} {m.code} {m.message}")
    lines.extend(totals_text(assessment))
    return "\n".join(lines) + "\n"


def _rule_text(rule_id: str, n: int, kinds: dict[str, str]) -> str:
    """``dataset.map x2``, ``(approximate)`` after a rule that is not exact."""
    text = f"{rule_id} x{n}" if n > 1 else rule_id
    return text if kinds.get(rule_id) == "exact" else f"{text} (approximate)"


def totals_text(assessment: Assessment) -> list[str]:
    t = assessment.totals()
    per_generation = ", ".join(f"{g} {assessment.generation_counts(g)['files']}" for g in GENERATIONS)
    lines = [
        "",
        "totals",
        f"  files: {t['files']} ({per_generation}; {t['error']} could not be read or parsed)",
        f"  constructs converted by rules: {t['exact'] + t['approximate']} "
        f"({t['exact']} exact, {t['approximate']} approximate)",
        f"  NOTE markers to review: {t['notes']}",
        f"  TODO markers to port by hand: {t['todos']}",
        f"  estimated manual work: {hours(t['minutes'])}",
    ]
    if assessment.estimate:
        lines.extend("    " + line for line in _columns([estimate_row(line) for line in assessment.estimate], right={0, 3, 5}))
    return lines


def estimate_row(line: EstimateLine) -> list[str]:
    """``count  severity  x  minutes  =  total  family``, one line of the estimate."""
    w = line.weight
    return [str(line.count), w.label, "x", f"{w.minutes} min", "=", f"{line.minutes} min", w.family]
