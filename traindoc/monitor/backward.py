"""Backward passes: the losses each step backpropagated, the gradient a backward started
from (missing-zero-grad, measured), and the backward clock: in a loop with no torch.optim
optimizer, one ``backward()`` (or ``torch.autograd.grad`` of the loss) is one step."""

from __future__ import annotations

import warnings
import weakref
from typing import Any

import torch

from .context import host_floats
from .graph_acts import GraphActivations, graph_leaves, graph_params
from .quantities import grad_norms, total_norm
from .reach import LossReach
from .reduction import graph_reduction


class BackwardClock:
    """Owned by the monitor; each hook entry point is called through ``Monitor.guard``."""

    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self.last_loss: torch.Tensor | None = None
        self.since_step = False  # a backward since the last optimizer step
        self.active = False  # no torch.optim optimizer steps: one backward() is one step
        self._waiting = 0  # backwards since the last step while no optimizer has stepped
        self._ag_counts: bool | None = None  # torch.autograd.grad(loss, params) is the step (decided once)
        self._ag_by_id: dict[int, torch.Tensor] = {}
        # missing-zero-grad, measured: the gradient already in .grad when the first backward
        # after a step (or after a zero_grad call) begins; sampled steps only, 4 tensors
        self.carry_pending = False
        self.carried: tuple[list[torch.Tensor], torch.Tensor | float, list] | None = None
        self._cleared = False  # a zero_grad since the last backward (a closure's re-evaluation)
        self._closure_said = False
        self.graph_acts = GraphActivations(mon)  # functional sigmoid/tanh/relu outputs, from the graph
        # with no model and no optimizer (raw tensors updated by hand): the loss graph's leaf
        # tensors, input side first, kept weakly; walked again when one of them is gone
        self._leaves: list[weakref.ref] = []
        self._leaf_shapes_noted = False
        self._first_zero: list[bool] | None = None  # leaf weights at exactly 0 at the first backward
        self._reduction_read = False  # the loss graph's reduction, read at the first backward
        self.reach = LossReach(mon)  # which optimizers the first backwards reach (a GAN's mark)

    def grad_of(self, p: torch.Tensor) -> torch.Tensor:
        """p's gradient: the one torch.autograd.grad returned this step, else p.grad."""
        g = self._ag_by_id.get(id(p))
        return g if g is not None else p.grad

    def on_zero_grad(self) -> None:
        self.carry_pending = True  # the next backward's starting gradient is measured again
        self._cleared = True

    def _closure_carry(self) -> None:
        """A closure evaluated again within one step (LBFGS's line search) whose backward
        starts with .grad still set and no zero_grad since the previous evaluation: each
        evaluation adds onto the last, so the optimizer reads sums of stale gradients
        (skorch's LBFGS bug). One event, the first time; no tensor work (a ``p.grad = None``
        written by hand in the closure reads as cleared, a ``p.grad.zero_()`` does not)."""
        opt = self.mon.optim.primary_optimizer()
        if opt is None or self._closure_said:
            return
        params = [p for g in opt.param_groups for p in g["params"] if p.requires_grad][:4]
        if params and any(p.grad is not None for p in params):
            self._closure_said = True
            self.mon.writer.event(self.mon.step, "closure-grads-carried",
                                  f"{type(opt).__name__}'s closure ran again without clearing .grad",
                                  {"optimizer": type(opt).__name__})

    def _measure_carried(self) -> None:
        """The norm of what .grad holds before this backward adds to it, for the primary
        optimizer's first 4 tensors: 0 (or None grads) after zero_grad; the previous step's
        gradient when nothing cleared it. Deferred: a tensor joined to the step's one sync."""
        self.carry_pending = False
        opt = self.mon.optim.primary_optimizer()
        if opt is None:
            return
        params = [p for g in opt.param_groups for p in g["params"] if p.requires_grad][:4]
        grads = [p.grad for p in params if p.grad is not None and not p.grad.is_sparse]
        # the .grad tensors themselves too: autograd adds into them in place, so a step that
        # finds other tensors there assigned its gradients by hand (`master.grad = work.grad`).
        # (A backward with create_graph=True replaces .grad by old + new: a missing zero_grad
        # there reads as cleared, the norm-shape fallback of missing-zero-grad is then ruled out.)
        self.carried = (params, total_norm(grad_norms(grads)) if grads else 0.0, grads)

    def on_backward(self, t: torch.Tensor) -> None:
        if t.numel() != 1 or not t.is_floating_point():
            return
        mon = self.mon
        rec = mon.rec
        rec.fwd_group += 1
        if self.carry_pending and rec.sampled:
            self._measure_carried()
        cleared, self._cleared = self._cleared, False
        if mon.optim.closure_tail is not None:
            if not cleared:
                self._closure_carry()
            return  # a closure evaluated again within one step (LBFGS line search): not a new loss
        if mon.optim.primary is None and self.since_step and not self.active:
            self._waiting += 1
            # Backwards with no optimizer step: gradient accumulation towards a first step,
            # or a loop that updates the weights by hand. The latter when no torch.optim
            # optimizer holds the model's parameters (one scan of live objects, once; with
            # no model, the leaf tensors of the loss's graph), or after 256 backwards
            # whatever holds them.
            if self._waiting == 1 and not self._an_optimizer_holds_the_model(
                    None if self.mon.live_roots() else graph_leaves(t)):
                self._start()
            elif self._waiting >= 256:  # an optimizer holds the model and never stepped: say so
                self._start(idle=self._idle_optimizers())
        if self._first_zero is None and mon.optim.primary is None and not mon.live_roots():
            self._first_zero = []  # once, whatever happens below (a failure must not repeat every backward)
            self._first_zero = _zero_leaves(t)  # before any update: the backward clock starts later
        if self.active and mon.optim.primary is None and not mon.live_roots():
            self._note_leaves(t)
        self.graph_acts.on_backward(t)
        self.reach.on_backward(t)
        if not self._reduction_read and t.grad_fn is not None:
            self._reduction_read = True
            found = graph_reduction(t, scaled=mon.scalers.is_scaled(t))
            if found is not None:
                mon.writer.meta("loss_graph", {"step": mon.step, **found})
        u = mon.scalers.unscaled(t)
        rec.losses.append(u if u.dim() == 0 else u.reshape(()))
        self.since_step = True
        mon.batches.assign()

    def on_backward_end(self, t: torch.Tensor) -> None:
        """After ``backward()``: with the backward clock, the step ends here (the weights
        are updated by the script's own code next, with these gradients)."""
        mon = self.mon
        if self.active and mon.optim.primary is None and mon.optim.closure_tail is None and mon.rec.losses:
            self._finish_step()

    def _note_leaves(self, t: torch.Tensor) -> None:
        """The weights of a raw-tensor network (d2l's ``sgd(params)``, ``w -= lr * w.grad``):
        one graph walk (at most ``NODES`` nodes) while the ones found last time are alive;
        their shapes go to the meta once (``graph_params``)."""
        if self._leaves and all(r() is not None for r in self._leaves):
            return
        found = graph_params(t) or []
        self._leaves = [weakref.ref(p) for p in found]
        if found and not self._leaf_shapes_noted:
            self._leaf_shapes_noted = True
            kept = found[:256]
            zero = self._first_zero if self._first_zero is not None and len(self._first_zero) == len(kept) else None
            self.mon.writer.meta("graph_params", {"shapes": [list(p.shape) for p in kept]}
                                 | ({"zero": zero} if zero is not None else {}))

    def counts_autograd_grad(self, inputs: tuple) -> bool:
        """Is ``torch.autograd.grad(loss, inputs)`` this loop's training step? Decided once, at
        the first call, by one scan of live optimizers: yes when none holds the tensors
        differentiated against nor the watched model's parameters (a JAX-style loop,
        ``p -= lr * g``); no for a gradient with respect to inputs (FGSM, saliency) or a
        functional inner loop next to an optimizer (MAML)."""
        if self.mon.optim.primary is not None:
            return False
        if self._ag_counts is None:
            leaves = bool(inputs) and all(isinstance(p, torch.Tensor) and p.is_leaf and p.requires_grad
                                          for p in inputs)
            model_held = bool(self.mon.live_roots()) and self._an_optimizer_holds_the_model()
            self._ag_counts = leaves and not model_held and not self._an_optimizer_holds_the_model(
                {id(p) for p in inputs})
        return self._ag_counts

    def on_autograd_grad_end(self, t: torch.Tensor, inputs: tuple, grads: Any) -> None:
        """After a counted ``torch.autograd.grad(loss, params)`` (see counts_autograd_grad):
        the gradients are the returned ones, the parameters the tensors differentiated
        against; one call is one step (backward clock)."""
        rec = self.mon.rec
        if self.mon.optim.primary is not None or not rec.losses:
            return
        rec.ag_grads = [(p, g) for p, g in zip(inputs, grads)
                        if isinstance(g, torch.Tensor) and not g.is_sparse and g.is_floating_point()]
        if not self.active:
            self._start(pending_only=True)
        self.on_backward_end(t)
        rec.ag_grads = None  # consumed by the step, or dropped: never held past this call

    def _an_optimizer_holds_the_model(self, params: set[int] | None = None) -> bool:
        if params is None:
            params = {id(p) for _, m in self.mon.live_roots() for p in m.parameters()}
        if not params:
            return True  # nothing known yet: wait for an optimizer
        return bool(_holders(params, first=True))

    def _idle_optimizers(self) -> list[str]:
        """The classes of the live optimizers that hold the watched model's parameters
        (called once, when 256 backwards passed without a step)."""
        return _holders({id(p) for _, m in self.mon.live_roots() for p in m.parameters()})

    def _start(self, pending_only: bool = False, idle: list[str] | None = None) -> None:
        """Start the backward clock. ``pending_only``: the current backward's loss stays for
        its own step (its gradients are known: torch.autograd.grad returned them).
        ``idle``: the optimizers that hold the model and never stepped (read by
        params-not-updated)."""
        mon, rec = self.mon, self.mon.rec
        self.active = True
        clock = {"kind": "backward", "from_step": mon.step,
                 "why": "no torch.optim optimizer stepped: one backward() (or torch.autograd.grad of the loss) "
                        "is counted as one step"}
        if idle:
            clock["idle_optimizers"] = idle[:4]
            clock["backwards_before"] = self._waiting
        mon.writer.meta("step_clock", clock)
        pending, rec.losses = rec.losses, []
        current = pending.pop() if pending_only and pending else None
        ag, rec.ag_grads = rec.ag_grads, None
        for loss in pending:  # the backwards before this one: one step each, their loss only
            mon.rec.losses = [loss]
            self._finish_step(grads=False)
        if current is not None:
            mon.rec.losses, mon.rec.ag_grads = [current], ag

    def stop(self) -> None:
        """An optimizer stepped after all: back to its clock."""
        self.active = False
        self.mon.writer.event(self.mon.step, "step-clock", "an optimizer stepped: steps follow it again", {})

    def _step_params(self, grads: bool) -> tuple[list[torch.Tensor], list[str]]:
        """The parameters of a backward-clock step and their names."""
        params, pnames = [], []
        rec = self.mon.rec
        ag, rec.ag_grads = rec.ag_grads, None
        names = self.mon.models.param_names
        if grads and ag:  # torch.autograd.grad: the gradients it returned, not .grad
            for i, (p, g) in enumerate(ag):
                params.append(p)
                pnames.append(names.get(id(p), f"param{i}"))
            self._ag_by_id = {id(p): g for p, g in ag}
        elif grads:
            for _, m in self.mon.live_roots():
                for p in m.parameters():
                    if p.grad is not None and not p.grad.is_sparse:
                        pnames.append(names.get(id(p), f"param{len(params)}"))  # param0, ... as elsewhere
                        params.append(p)
            if not params:  # raw tensors: the loss graph's leaves (graph.param0 on the input side)
                for i, r in enumerate(self._leaves[:256]):
                    p = r()
                    if p is not None and p.grad is not None and not p.grad.is_sparse:
                        params.append(p)
                        pnames.append(f"graph.param{i}")
        return params, pnames

    def _finish_step(self, grads: bool = True) -> None:
        mon = self.mon
        rec = mon.rec
        params, pnames = self._step_params(grads)
        loss = torch.stack([x.float() for x in rec.losses]).sum()
        rec.losses = []
        self.since_step = False
        self._waiting = 0
        names, tensors = ["loss"], [loss]
        norms = grad_norms([self.grad_of(p) for p in params])
        counts = {"grad_tensors": float(len(params))} if rec.sampled and grads else {}
        if norms:
            tensors.append(torch.stack(norms))
            names.extend(f"grad_norm/{n}" for n in pnames)
        if rec.sampled and grads and pnames and pnames[0].startswith("graph."):
            # a raw-tensor network has no optimizer to read weights off: their norms (one
            # per tensor on sampled steps) show a weight left at exactly 0 (bad-init)
            tensors.append(torch.stack([p.detach().float().norm() for p in params]))
            names.extend(f"param_norm/{n}" for n in pnames)
        if rec.preclip:
            names.append("grad_norm_preclip")
            tensors.append(rec.preclip[-1])
            rec.preclip = []
        mon.recorder.finish(names, tensors, counts, params, pnames, norms)
        self._ag_by_id = {}
        mon.end_step()


def _holders(params: set[int], first: bool = False) -> list[str]:
    """The classes of the live ``torch.optim`` optimizers holding any of ``params`` (one scan
    of live objects; ``first``: stop at the first)."""
    import gc

    out: list[str] = []
    with warnings.catch_warnings():  # isinstance on deprecated module attributes warns
        warnings.simplefilter("ignore")
        for o in gc.get_objects():
            # type(), not isinstance(): isinstance on a dead weakref.proxy raises ReferenceError
            if issubclass(type(o), torch.optim.Optimizer) and any(
                    id(p) in params for g in o.param_groups for p in g["params"]):
                out.append(type(o).__name__)
                if first:
                    break
    return out


def _zero_leaves(t: torch.Tensor) -> list[bool]:
    """Which of the loss graph's leaf weights (graph_params' order) are exactly 0 at the
    run's first backward, before any update: bad-init's symmetric-weights check for a network
    of raw tensors. One graph walk, one reduction per tensor and one host copy per device,
    once; [] where the leaves cannot be compared (sparse, meta)."""
    found = (graph_params(t) or [])[:256]
    if not found or any(p.layout != torch.strided for p in found):
        return []  # (sparse leaves: no elementwise comparison to rely on)
    try:
        with torch.no_grad():
            return [v == 0 for v in host_floats([(p.detach() != 0).any() for p in found])]
    except (RuntimeError, NotImplementedError, TypeError):
        return []
