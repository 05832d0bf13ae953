"""Presentation only: findings (and series) to terminal text, JSON and HTML."""
