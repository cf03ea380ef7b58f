"""Helpers shared by tests (pytest puts tests/ on sys.path for its conftest, so `support` imports from anywhere)."""
