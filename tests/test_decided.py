"""benchmarks/decided.py: how the share of positions the solver decides is read from its
rows, a deeper solve of the undecided ones included."""

from __future__ import annotations

import doctest

import pytest

from tests.benchmark_scripts import load

decided = load("decided")


def row(deal: int, status: str, nodes: int, max_nodes: int) -> dict[str, str]:
    return {"rules": "millie", "deal": str(deal), "ply": "40", "stock": "32", "status": status,
            "nodes": str(nodes), "seconds": "1.0", "max_nodes": str(max_nodes)}  # fmt: skip


ROWS = [
    row(1, "winnable", 300_000, 1_000_000),
    row(2, "unknown", 1_000_001, 1_000_000),
    row(3, "unknown", 1_000_001, 1_000_000),
    row(2, "unwinnable", 5_000_000, 10_000_000),  # the deeper pass
    row(3, "unknown", 10_000_001, 10_000_000),
]


def test_a_deeper_solve_carries_the_table_to_the_budget_every_position_was_given(capsys):
    decided.report(ROWS, "millie", 2.0)
    out = capsys.readouterr().out
    assert "1,000,000 nodes: 1/3" in out and "10,000,000 nodes: 2/3" in out
    assert "500,000 nodes: 1/3" in out
    decided.report(ROWS[:-1], "millie", 2.0)  # deal 3 never had ten million
    assert "10,000,000" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("budget", "again"), [(20_000_000, [3]), (10_000_000, []), (1_000_000, [])]
)
def test_only_what_a_smaller_budget_left_undecided_is_solved_again(budget, again):
    assert [d for d in (1, 2, 3) if decided.undecided_at(ROWS, "millie", d, budget)] == again


def test_the_examples_run():
    assert doctest.testmod(decided).failed == 0
