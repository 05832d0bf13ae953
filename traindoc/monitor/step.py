"""The state of the step in progress: what the measurements collect between two step
boundaries. One record, reset by the monitor at each boundary (``Monitor._begin_step``),
so no reference to a step's tensors outlives the step."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch


class StepRecord:
    """Written by the measurement objects, read when the step's record is taken."""

    __slots__ = ("losses", "indices", "data_time", "act_names", "act_vals", "extra_time", "preclip",
                 "before", "before_params", "sampled", "fwd_count", "fwd_batch", "fwd_group", "train_fwds",
                 "ag_grads")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.losses: list[torch.Tensor] = []  # what backward() was called on since the step began
        self.indices: list[np.ndarray] = []  # dataset indices of the batches backpropagated
        self.data_time = 0.0  # time spent waiting for the DataLoader
        self.act_names: list[str] = []  # activation statistics (sampled steps)
        self.act_vals: list[torch.Tensor] = []
        self.extra_time = 0.0  # the sampled measurements' own cost, for the sampler's budget
        self.preclip: list[torch.Tensor] = []  # clip_grad_norm_'s returned totals
        self.before: list[torch.Tensor] | None = None  # parameter copies before the update (sampled)
        self.before_params: list[torch.Tensor] | None = None
        self.sampled = False
        self.fwd_count = 0  # model-input records taken this step (no DataLoader)
        self.fwd_batch: dict[str, Any] | None = None  # this step's latest model-input record
        self.fwd_group = 0  # backwards seen this step: the forwards before the k-th belong to test k of a replay
        self.train_fwds = 0  # training forwards of the model this step (every one, unlike fwd_count)
        self.ag_grads: list[tuple[torch.Tensor, torch.Tensor]] | None = None  # torch.autograd.grad's, this step
