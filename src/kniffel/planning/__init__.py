"""Planning: the value of every legal action of a game position (placeholder).

The planners still live in :mod:`kniffel.bots.optimal`; this module names the interface front ends import
(``planner_for``, ``Choice``, ``Planner``, ``is_exact``) while they move here.
"""

from __future__ import annotations

from kniffel.bots.optimal import Choice, ColumnPlanner, ExactPlanner, Planner, is_exact, planner_for

__all__ = ["Choice", "ColumnPlanner", "ExactPlanner", "Planner", "is_exact", "planner_for"]
