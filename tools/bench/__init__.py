"""Benchmarks, one module per part measured: engine, workers, api (and api_longpolls), seating."""
