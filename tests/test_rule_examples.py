"""Runs every rule's before/after examples and look-alike no-op examples (Fixit-style)."""

from __future__ import annotations

import pytest

from flink2spark.transpiler.engine import convert_source
from flink2spark.transpiler.registry import all_rules

RULES = all_rules()
EXAMPLES = [pytest.param(r, i, id=f"{r.id}[{i}]") for r in RULES for i in range(len(r.examples))]
NOOPS = [pytest.param(r, i, id=f"{r.id}[noop{i}]") for r in RULES for i in range(len(r.noop))]


def test_every_rule_has_examples_and_noops():
    missing = [r.id for r in RULES if not r.examples or not r.noop]
    assert not missing, f"rules without before/after or no-op examples: {missing}"


def test_rule_ids_are_unique_and_documented():
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids))
    for r in RULES:
        assert r.summary and r.matches, r.id


@pytest.mark.parametrize("rule,index", EXAMPLES)
def test_example(rule, index):
    example = rule.examples[index]
    result = convert_source(example.before, f"{rule.id}.py")
    assert result.output == example.after
    # converting the output again changes nothing
    again = convert_source(result.output, f"{rule.id}.py")
    assert again.output == result.output


@pytest.mark.parametrize("rule,index", NOOPS)
def test_noop(rule, index):
    source = rule.noop[index]
    result = convert_source(source, f"{rule.id}.py")
    assert result.output == source, "look-alike code must pass through byte for byte"
    assert not result.markers
