//! Shared setup for the benchmarks.
