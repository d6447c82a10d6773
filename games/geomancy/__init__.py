"""Geomancy: cast pyramid stones onto a chessboard and capture with their auras (rules.py, model.py)."""
