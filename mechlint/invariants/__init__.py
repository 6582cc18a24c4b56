"""Semantic invariants: temporal rules over the steps of a scenario, declared as data."""
