"""Developer tools run from the repository root (`python -m tools.chaos`, `python -m tools.bench.engine`, ...):
benchmarks, the chaos run and their scratch databases. Not installed with the product, which imports nothing here."""
