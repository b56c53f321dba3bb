"""``check --baseline``: findings already known, so that only new ones fail the run.

A finding is identified by (path, code, text): the path relative to the baseline file's folder
(``/``-separated), the marker code (``F2S900``/``F2S901``) and the text of its source line,
stripped (its message when the line is blank). Line numbers are not part of it: adding or
removing lines above a finding keeps it known. Identical findings are counted: a baseline that
knows one ``import pyflink`` line in a file does not hide a second one.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Iterable, Sequence

from flink2spark.transpiler.result import Marker

BASELINE_VERSION = 1
_LINE_BREAK = re.compile(r"\r\n|\r|\n")

Key = tuple[str, str, str]


class BaselineError(Exception):
    """A baseline file that cannot be read or written."""


def _path_key(path: str, folder: Path) -> str:
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(Path(os.path.abspath(folder))).as_posix()
    except ValueError:
        return absolute.as_posix()


def source_lines(data: bytes) -> list[str]:
    """The lines of a file as ``Marker.line`` counts them (1-based: ``lines[line - 1]``)."""
    return _LINE_BREAK.split(data.decode("utf-8", errors="replace"))


def keys(path: str, markers: Sequence[Marker], lines: Sequence[str], baseline_file: Path) -> list[Key]:
    """The identity of each marker of one file."""
    where = _path_key(path, baseline_file.parent)
    out = []
    for marker in markers:
        text = lines[marker.line - 1].strip() if 0 < marker.line <= len(lines) else ""
        out.append((where, marker.code, text or marker.message))
    return out


def load(baseline_file: Path) -> Counter:
    try:
        data = json.loads(Path(baseline_file).read_text("utf-8"))
        known = Counter()
        for entry in data["findings"]:
            key = (str(entry["path"]), str(entry["code"]), str(entry["text"]))
            count = int(entry.get("count", 1))
            if count < 1:
                raise ValueError(f"count {count} is less than 1")
            known[key] += count
        return known
    except OSError as exc:
        raise BaselineError(f"{baseline_file}: cannot read the baseline: {exc.strerror or exc}") from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise BaselineError(
            f"{baseline_file}: not a flink2spark baseline (write one with check --write-baseline): {exc!r}"
        ) from None


def new_findings(found: Iterable[Key], known: Counter) -> list[bool]:
    """For each finding in order, whether it is new: beyond the count the baseline knows."""
    left = Counter(known)
    out = []
    for key in found:
        if left[key] > 0:
            left[key] -= 1
            out.append(False)
        else:
            out.append(True)
    return out


def dump(found: Iterable[Key]) -> str:
    counts = Counter(found)
    findings = [
        {"path": path, "code": code, "text": text, "count": n} for (path, code, text), n in sorted(counts.items())
    ]
    return json.dumps({"version": BASELINE_VERSION, "tool": "flink2spark", "findings": findings}, indent=2) + "\n"
