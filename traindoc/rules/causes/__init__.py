"""Cause rules: one file per cause name of the taxonomy that a run's series can reveal.

They follow the order experience teaches (data and labels, then the loss, the learning
rate, init and normalisation, gradients, mixed precision) and share the run's features
(:mod:`traindoc.rules.evidence`). Each returns at most one finding with a confidence; the ranker in
``traindoc.diagnose`` orders them.
"""
