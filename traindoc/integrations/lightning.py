"""``TraindocCallback`` for PyTorch Lightning::

    from traindoc.integrations.lightning import TraindocCallback
    trainer = L.Trainer(callbacks=[TraindocCallback(out="runs/exp1")])

Records the fit into ``out`` (automatic and manual optimization alike) and prints the
diagnosis when the fit ends; ``traindoc diagnose runs/exp1`` reads it later. Under
``traindoc run`` it joins the monitor that already records the process.
"""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any

try:
    from lightning.pytorch.callbacks import Callback
except ImportError:  # the older package name
    from pytorch_lightning.callbacks import Callback  # type: ignore[no-redef]

from ._scope import FitScope, report_end


class TraindocCallback(Callback):
    def __init__(self, out: str | Path | None = None, print_diagnosis: bool = True, **monitor_kwargs: Any) -> None:
        super().__init__()
        self.scope = FitScope(out, "lightning", **monitor_kwargs)
        self.print_diagnosis = print_diagnosis

    @property
    def out(self) -> Path | None:
        return None if self.scope.monitor is None else Path(self.scope.monitor.out)

    def on_fit_start(self, trainer: Any, pl_module: Any) -> None:
        self.scope.start(getattr(trainer, "global_step", None))

    def on_fit_end(self, trainer: Any, pl_module: Any) -> None:
        self.scope.close("finished", 0)
        if self.print_diagnosis and getattr(trainer, "is_global_zero", True) and self.out is not None:
            report_end(self.out, self.scope.started)

    def on_exception(self, trainer: Any, pl_module: Any, exception: BaseException) -> None:
        interrupted = isinstance(exception, KeyboardInterrupt)
        self.scope.close("interrupted" if interrupted else "crashed", 130 if interrupted else 1,
                         None if interrupted else "".join(traceback.format_exception(exception)))
