"""What the cause rules read and how they conclude: the one interface they share.

A rule takes a run and returns findings; in between it reads the run's shared features
(computed once per run), a few shared readings of its series and of the model's
structure, and turns the strength of its evidence into a finding whose severity follows
its confidence. Each concern is one module:

- :mod:`.run_features`: the :class:`Features` of a run and their computation (cached);
- :mod:`.series`: shared readings of the series (focus rank, activations, onset of a
  NaN, first updates, LR growth, a lone loss jump, leftover gradients, an early blow-up or rise);
- :mod:`.model`: the recorded model's structure;
- :mod:`.inputs`: raw (unnormalised) inputs, a cause other rules defer to;
- :mod:`.policy`: confidence to finding.
"""

from .inputs import below_raw_inputs, raw_inputs
from .model import last_module_class, module_order, module_sizes, param_modules, raw_param_shapes, weight_params
from .policy import finding
from .run_features import Features, features
from .series import (
    act_stat,
    calm_jump,
    carried_grads,
    early_blowup,
    early_rise,
    early_update,
    ended_well,
    focus_rank,
    lr_growth,
    onset,
    sampled,
)

__all__ = [
    "Features", "act_stat", "below_raw_inputs", "calm_jump", "carried_grads", "early_blowup", "early_rise",
    "early_update", "features", "finding",
    "focus_rank", "last_module_class", "lr_growth", "module_order", "module_sizes", "onset", "param_modules",
    "raw_inputs", "raw_param_shapes", "sampled", "weight_params",
]
