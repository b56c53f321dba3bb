"""Measure the words Flink's SQL parser refuses as unquoted column names and write
rules/table/_flink_reserved.py.

Candidates: the reserved words of sqlglot's dialects. Each is declared as a column in a CREATE
TEMPORARY TABLE on the reference Flink (.venv-flink); the words its parser refuses ("SQL parse
failed") are kept. Run from the repository: ``.venv/bin/python scripts/flink_reserved_words.py``.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = '''
import sys
from pyflink.table import EnvironmentSettings, TableEnvironment
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
refused = []
for i, w in enumerate(open(sys.argv[1]).read().split()):
    try:
        t_env.execute_sql(f"CREATE TEMPORARY TABLE probe{i} ({w} INT) WITH ('connector' = 'datagen')")
    except Exception as exc:
        if "SQL parse failed" in str(exc):
            refused.append(w)
open(sys.argv[2], "w").write("\\n".join(refused) + "\\n")
'''


def candidates() -> list[str]:
    from sqlglot import dialects

    words = set()
    for info in pkgutil.iter_modules(dialects.__path__):
        module = importlib.import_module(f"sqlglot.dialects.{info.name}")
        for obj in vars(module).values():
            generator = getattr(obj, "Generator", None) if isinstance(obj, type) else None
            words |= {w.upper() for w in getattr(generator, "RESERVED_KEYWORDS", ()) or ()}
    return sorted(w for w in words if re.fullmatch(r"[A-Z_][A-Z0-9_]*", w))


def main() -> None:
    words = candidates()
    with tempfile.TemporaryDirectory() as tmp:
        given, refused = Path(tmp) / "candidates.txt", Path(tmp) / "refused.txt"
        probe = Path(tmp) / "probe.py"
        given.write_text("\n".join(words))
        probe.write_text(PROBE)
        subprocess.run([str(ROOT / ".venv-flink" / "bin" / "python"), str(probe), str(given), str(refused)], check=True)
        found = sorted(refused.read_text().split())
    lines, line = [], "    "
    for word in found:
        item = f'"{word}", '
        if len(line) + len(item) > 118:
            lines.append(line.rstrip())
            line = "    "
        line += item
    lines.append(line.rstrip())
    (ROOT / "rules" / "table" / "_flink_reserved.py").write_text(
        '"""Words Flink 2.3\'s SQL parser refuses as unquoted identifiers (a column, table or alias\n'
        'name): ``SQL parse failed. Encountered "method"``; quoted with backticks they are names.\n\n'
        "Measured, not copied: ``scripts/flink_reserved_words.py`` declares a column of each candidate\n"
        f"word (the reserved words of sqlglot's dialects, {len(words)} words) in a CREATE TABLE on the reference\n"
        f"Flink 2.3 (.venv-flink) and keeps those its parser refuses ({len(found)}). A Flink reserved word\n"
        'missing from the candidates is missing here too.\n"""\n\nRESERVED = frozenset({\n'
        + "\n".join(lines) + "\n})\n")
    print(f"{len(found)} of {len(words)} candidates refused", file=sys.stderr)


if __name__ == "__main__":
    main()
