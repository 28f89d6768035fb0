"""rulepass.runtime: the per-rank executor, kernels, collectives and pipeline schedules."""
