"""Forensics: from a non-finite step to the op, the module and the samples.

Replay-time tools (nothing here runs during training):

- :func:`first_nonfinite`: the first aten op that made a NaN/Inf, its module and inputs;
- :func:`find_bad_samples` / :func:`slice_batch`: group testing over the batch;
- :func:`per_sample_loss_and_grad_norm`: rank samples with ``torch.func``;
- :func:`bad_data_or_bad_state`: PaLM's triage of data against model state;
- :func:`write_bundle` / :func:`read_bundle`: the step, stored safely (no pickle);
- :mod:`.findings`: the results as taxonomy ``Finding`` objects.
"""

from .bisect import BisectResult, batch_size_of, find_bad_samples, max_calls, slice_batch
from .locate import NonfiniteReport, OpEvent, first_nonfinite

__all__ = [
    "BisectResult",
    "NonfiniteReport",
    "OpEvent",
    "batch_size_of",
    "find_bad_samples",
    "first_nonfinite",
    "max_calls",
    "slice_batch",
]
