"""``TraindocCallback`` for the Hugging Face ``Trainer``::

    from traindoc.integrations.hf import TraindocCallback
    trainer = Trainer(..., callbacks=[TraindocCallback(out="runs/exp1")])

Records the training into ``out`` (its prefetching loader and gradient accumulation
included) and prints the diagnosis at the end of training on the main process; under
``traindoc run`` it joins the monitor that already records the process.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from transformers import TrainerCallback

from ._scope import FitScope


class TraindocCallback(TrainerCallback):
    def __init__(self, out: str | Path | None = None, print_diagnosis: bool = True, **monitor_kwargs: Any) -> None:
        self.scope = FitScope(out, "huggingface", **monitor_kwargs)
        self.print_diagnosis = print_diagnosis

    @property
    def out(self) -> Path | None:
        return None if self.scope.monitor is None else Path(self.scope.monitor.out)

    def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        self.scope.start(getattr(state, "global_step", None))

    def on_train_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        self.scope.close("finished", 0)
        if self.print_diagnosis and getattr(state, "is_world_process_zero", True) and self.out is not None:
            from ._scope import report_end

            report_end(self.out, self.scope.started)
