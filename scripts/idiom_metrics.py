#!/usr/bin/env python
"""Print the measures of how native the converted fixtures are (the idiomatic-output work).

    python scripts/idiom_metrics.py

Read from the committed ``fixtures/*/*/converted.py`` and ``runtime/*.py`` (nothing is converted
or run): per API generation, the fixtures whose output carries NOTE F2S205 (records stay on RDDs)
and those that import the runtime shim; over all outputs, the uses of the Flink-shaped shim names
that idiomatic output should not have (``f2s.Types``, ``f2s.Row``, ``f2s.Time``, window assigners,
state descriptors, watermark strategies); and the shim's size in lines. A measurement, not a test:
exit status 0 always.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

FLINK_SHAPED = {
    "f2s.Types": r"\bf2s\.Types\b",
    "f2s.Row": r"\bf2s\.Row\b",
    "f2s.Time": r"\bf2s\.Time\b",
    "window assigners": r"\bf2s\.\w+(?:Tumbling|Sliding|Session|Global)\w*Windows\b",
    "state descriptors": r"\bf2s\.\w+StateDescriptor\b",
    "watermark strategies": r"\bf2s\.WatermarkStrategy\b",
}
SHIM_IMPORT = re.compile(r"from flink2spark\.runtime import|import flink2spark\.runtime")


def main() -> None:
    outputs = sorted(REPO.glob("fixtures/*/*/converted.py"))
    by_generation: dict[str, list[Path]] = {}
    for path in outputs:
        by_generation.setdefault(path.parts[-3], []).append(path)
    print(f"{'generation':<20}{'fixtures':>9}{'F2S205':>8}{'shim':>6}")
    for generation, paths in sorted(by_generation.items()):
        texts = [p.read_text() for p in paths]
        rdd = sum("F2S205" in t for t in texts)
        shim = sum(bool(SHIM_IMPORT.search(t)) for t in texts)
        print(f"{generation:<20}{len(paths):>9}{rdd:>8}{shim:>6}")
    text = "\n".join(p.read_text() for p in outputs)
    for name, pattern in FLINK_SHAPED.items():
        print(f"{name}: {len(re.findall(pattern, text))}")
    runtime = sorted((REPO / "runtime").glob("*.py"))
    sizes = {p.name: len(p.read_text().splitlines()) for p in runtime}
    print("shim lines:", sum(sizes.values()), "(" + ", ".join(f"{k} {v}" for k, v in sizes.items()) + ")")


if __name__ == "__main__":
    main()
