"""``python -m benchmarks``: speed figures as ratios against baselines measured in the same run."""
