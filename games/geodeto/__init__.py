"""Geodeto: towers of pyramids across six continents and the World Ocean (rules.py)."""
