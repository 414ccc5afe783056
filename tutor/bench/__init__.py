"""Benchmarks of the edit -> check -> verdict loop (`python -m tutor.bench`)."""
