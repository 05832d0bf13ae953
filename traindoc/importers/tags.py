"""Other tools' metric names -> traindoc's series names.

traindoc's own names (what ``traindoc run`` records) are ``loss``, ``loss/eval``,
``lr/<optimizer>/<group>``, ``grad_norm``, ``time/step``, ``time/data``; a source that
already uses them keeps them. The table below covers what the common tools write:

- Hugging Face Trainer (``log_history`` and its TensorBoard callback): ``loss``,
  ``eval_loss``, ``learning_rate``, ``grad_norm``; ``train/loss``, ``eval/loss``, ...
- Lightning: ``train_loss`` / ``train_loss_step``, ``val_loss``, ``lr-Adam`` and
  ``lr-Adam/pg2`` (LearningRateMonitor), ``grad_2.0_norm_total`` (``grad_norm``).
- hand-written SummaryWriter code: ``Loss/train``, ``Loss/val``, ``train/lr``, ...

Matching ignores case. The position in the table is the preference when two source
names map to one traindoc name (``loss`` beats ``train_loss_epoch``).
"""

from __future__ import annotations

import re

_EXACT: list[tuple[str, tuple[str, ...]]] = [
    ("loss", ("loss", "train/loss", "train_loss", "train_loss_step", "loss/train", "training_loss",
              "train/loss_step", "loss_step", "train-loss", "trainloss", "train_loss_epoch")),
    ("loss/eval", ("loss/eval", "eval_loss", "eval/loss", "val_loss", "val/loss", "loss/val", "validation_loss",
                   "validation/loss", "loss/validation", "valid_loss", "valid/loss", "loss/valid", "test_loss",
                   "loss/test", "test/loss", "val_loss_epoch", "val_loss_step")),
    ("lr/0/0", ("lr", "learning_rate", "train/learning_rate", "train/lr", "lr/train", "learning-rate")),
    ("grad_norm", ("grad_norm", "train/grad_norm", "grad_2.0_norm_total", "gradient_norm", "grad_norm/total",
                   "total_grad_norm", "train/gradient_norm")),
    ("time/step", ("time/step", "step_time", "train/step_time", "iter_time", "time_per_step", "batch_time")),
    ("time/data", ("time/data", "data_time", "train/data_time", "dataloader_time")),
]
_TABLE = {src.lower(): (dst, i) for i, (dst, names) in enumerate(_EXACT) for src in names}
# traindoc's own names with a variable part, and Lightning's LearningRateMonitor names.
_OWN = re.compile(r"^(lr/\d+/\d+|grad_norm/.+|update_ratio/.+|param_norm(/.+)?|act/.+/[a-z_0-9]+|"
                  r"grad_nonfinite|grad_underflow/.+|scaler/.+|sampled|loss/.+)$")
_LIGHTNING_LR = re.compile(r"^lr-[A-Za-z0-9_]+(?:-(\d+))?(?:/pg(\d+))?$")   # lr-Adam, lr-Adam-1/pg2
_LIGHTNING_GRAD = re.compile(r"^grad_2\.0_norm/(.+)$")
_LATE = 10_000   # preference of a name matched by pattern: after every exact one


def traindoc_name(source: str) -> tuple[str | None, int]:
    """(traindoc's name for ``source`` or None, its preference: lower wins)."""
    key = source.strip()
    hit = _TABLE.get(key.lower())
    if hit is not None:
        return hit[0], hit[1] * 100 + _EXACT[hit[1]][1].index(key.lower())
    if _OWN.match(key):
        return key, -1
    m = _LIGHTNING_LR.match(key)
    if m:
        opt = int(m.group(1) or 0)                            # the second Adam is lr-Adam-1
        group = max(int(m.group(2)) - 1, 0) if m.group(2) else 0   # pg1 is the first group
        return f"lr/{opt}/{group}", _LATE
    m = _LIGHTNING_GRAD.match(key)
    if m:
        return f"grad_norm/{m.group(1)}", _LATE
    return None, _LATE + 1
