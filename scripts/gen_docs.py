#!/usr/bin/env python
"""Regenerate the tables of README.md from the code.

    python scripts/gen_docs.py          # rewrite README.md
    python scripts/gen_docs.py --check  # exit 1 if README.md is out of date

Between ``<!-- BEGIN codes -->`` and ``<!-- END codes -->``: the marker codes of
``flink2spark.transpiler.markers.CODES``. Between ``<!-- BEGIN rules -->`` and
``<!-- END rules -->``: the rules of ``flink2spark.transpiler.registry.all_rules()``
(left as is while the registry module does not exist).
``tests/test_cli.py::test_readme_tables_are_up_to_date`` fails when the README is stale.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Callable, Optional

README = Path(__file__).resolve().parent.parent / "README.md"


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


def _table(headers: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def codes_table() -> str:
    from flink2spark.transpiler.markers import CODES

    return _table(["code", "severity", "title"], [[f"`{c.code}`", c.severity, c.title] for c in CODES.values()])


def rules_table() -> Optional[str]:
    """The rules table, or None while the registry does not exist."""
    try:
        from flink2spark.transpiler.registry import all_rules
    except ImportError:
        return None
    rows = [
        [
            f"`{rule.id}`",
            rule.generation,
            ", ".join(f"`{m}`" for m in rule.matches),
            "exact" if rule.exact else "approximate",
            rule.form,
            rule.summary,
        ]
        for rule in all_rules()
    ]
    return _table(["rule", "generation", "matches", "kind", "form", "summary"], rows)


SECTIONS: dict[str, Callable[[], Optional[str]]] = {"codes": codes_table, "rules": rules_table}


def replace_section(text: str, name: str, body: str) -> str:
    pattern = re.compile(rf"(<!-- BEGIN {name} -->\n).*?(<!-- END {name} -->)", re.S)
    if not pattern.search(text):
        raise ValueError(f"README.md has no <!-- BEGIN {name} --> ... <!-- END {name} --> section")
    return pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text, count=1)


def render(text: str, sections: tuple[str, ...] = tuple(SECTIONS)) -> str:
    """``text`` with the named generated sections brought up to date."""
    for name in sections:
        body = SECTIONS[name]()
        if body is not None:
            text = replace_section(text, name, body)
    return text


def main(argv: list[str]) -> int:
    current = README.read_text("utf-8")
    fresh = render(current)
    if "--check" in argv:
        if fresh != current:
            print("README.md is out of date: run `python scripts/gen_docs.py`", file=sys.stderr)
            return 1
        return 0
    if fresh != current:
        README.write_text(fresh, "utf-8")
        print("README.md updated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
