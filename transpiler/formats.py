"""Machine-readable outputs of ``convert`` and ``check``: ``--output-format json|sarif|github``.

Every format takes the same input: the files of the run, each with its markers (already
filtered by ``--select``/``--ignore`` and, for ``check``, by ``--baseline``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable, Sequence
from urllib.parse import quote

from flink2spark.transpiler import markers as M
from flink2spark.transpiler.report import SCHEMA_VERSION, REPORT_VERSION, SEVERITIES, _PLURAL
from flink2spark.transpiler.result import Marker

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
INFORMATION_URI = "https://pypi.org/project/flink2spark/"
SARIF_LEVELS = {"note": "note", "todo": "warning", "error": "error"}
GITHUB_COMMANDS = {"note": "notice", "todo": "warning", "error": "error"}
CHECK_STATUSES = ("clean", "findings", "error")

Entry = tuple[str, Sequence[Marker]]  # a file's path (as given) and its markers


def relative_path(path: str) -> str:
    """``path`` relative to the current folder with ``/`` separators (as GitHub wants), when inside it."""
    absolute = os.path.abspath(path)
    cwd = os.getcwd()
    if absolute == cwd or absolute.startswith(cwd.rstrip(os.sep) + os.sep):
        return Path(os.path.relpath(absolute, cwd)).as_posix()
    return Path(absolute).as_posix()


# --------------------------------------------------------------------------- json (check)


def check_report(entries: Iterable[Entry]) -> dict:
    """The ``check`` document: the shape of the convert report, with check's own file statuses."""
    files, counts = [], {"files": 0, **{s: 0 for s in CHECK_STATUSES}, **{_PLURAL[s]: 0 for s in SEVERITIES}}
    codes: dict[str, int] = {}
    for path, markers in entries:
        status = (
            "error" if any(m.severity == "error" for m in markers) else "findings" if markers else "clean"
        )
        files.append({"path": path, "status": status, "markers": [m.to_json() for m in markers]})
        counts["files"] += 1
        counts[status] += 1
        for marker in markers:
            counts[_PLURAL[marker.severity]] += 1
            codes[marker.code] = codes.get(marker.code, 0) + 1
    return {
        "version": REPORT_VERSION,
        "schema_version": SCHEMA_VERSION,
        "command": "check",
        "files": files,
        "totals": {**counts, "codes": dict(sorted(codes.items()))},
    }


def to_json(document: dict) -> str:
    return json.dumps(document, indent=2) + "\n"


# --------------------------------------------------------------------------- sarif


def sarif(entries: Iterable[Entry], version: str) -> dict:
    """A SARIF 2.1.0 log with one run, as GitHub code scanning accepts it."""
    entries = list(entries)
    used = sorted({m.code for _, markers in entries for m in markers})
    index = {code: i for i, code in enumerate(used)}
    rules = []
    for code in used:
        known = M.CODES.get(code)
        title = known.title if known else code
        severity = known.severity if known else "todo"
        rules.append(
            {
                "id": code,
                "name": code,
                "shortDescription": {"text": title},
                "defaultConfiguration": {"level": SARIF_LEVELS[severity]},
            }
        )
    results = []
    for path, markers in entries:
        uri = _uri(path)
        for marker in markers:
            results.append(
                {
                    "ruleId": marker.code,
                    "ruleIndex": index[marker.code],
                    "level": SARIF_LEVELS[marker.severity],
                    "message": {"text": marker.message},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": uri},
                                "region": {"startLine": max(marker.line, 1), "startColumn": max(marker.col, 1)},
                            }
                        }
                    ],
                }
            )
    driver = {"name": "flink2spark", "version": version, "informationUri": INFORMATION_URI, "rules": rules}
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [{"tool": {"driver": driver}, "results": results}]}


def _uri(path: str) -> str:
    """A SARIF artifact URI: relative to the current folder (``src/a%20b.py``), else ``file:///...``."""
    relative = relative_path(path)
    return Path(relative).as_uri() if relative.startswith("/") else quote(relative, safe="/")


# --------------------------------------------------------------------------- github


def escape_data(text: str) -> str:
    """A workflow command's message, escaped as the GitHub Actions runner unescapes it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value (``file=``, ``title=``): ``:`` and ``,`` too."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github(entries: Iterable[Entry]) -> str:
    """One ``::warning file=...,line=...,col=...,title=F2Snnn::message`` line per marker."""
    lines = []
    for path, markers in entries:
        file = escape_property(relative_path(path))
        for m in markers:
            command = GITHUB_COMMANDS[m.severity]
            props = f"file={file},line={m.line},col={m.col},title={escape_property(m.code)}"
            lines.append(f"::{command} {props}::{escape_data(m.message)}\n")
    return "".join(lines)
