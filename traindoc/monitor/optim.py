"""Optimizer steps: the step boundary, and what is measured at it from the optimizer's
side: the loss since its last step, per-parameter gradient norms (one fused pass), the
pre-clipping norm, loss scales, learning rates, float16 underflow and the update ratio
(sampled steps), the carried gradient; the schedulers attached to it."""

from __future__ import annotations

import weakref
from typing import Any, Iterable

import torch

from . import context
from .quantities import grad_norms, total_norm, underflow_fraction, update_ratios

# loss-function calls in one backward from which the loss counts as a sum of terms (a loss
# per time step); a multi-task loss has 2-5 terms
TERMS = 8


class _OptState:
    __slots__ = ("index", "ref", "described", "fired", "ids", "pnames", "gkeys")

    def __init__(self, index: int, opt: torch.optim.Optimizer) -> None:
        self.index = index
        self.ref = weakref.ref(opt)
        self.described = False
        self.fired = False
        # the last step's parameters with a gradient (by id), their names and series names
        self.ids: list[int] = []
        self.pnames: list[str] = []
        self.gkeys: list[str] = []


class Optimizers:
    """Owned by the monitor; each hook entry point is called through ``Monitor.guard``.
    The primary optimizer (the first seen to step, or the first of ``optimizers=``) ends
    the monitor's steps; the others' records are deferred to the next step's sync.

    The clock changes hands when another optimizer steps twice with no step of the primary
    between and had never interleaved with it: a second phase with its own optimizer
    (pre-train then fine-tune, a linear probe then the whole model, a throwaway sanity
    check first) would otherwise be invisible once the first optimizer stops stepping
    (a LoRA fine-tune after a warm-up recorded 100 steps of 250). Optimizers that take
    turns every iteration (a GAN, encoder and decoder, a critic stepping k times per
    generator step once the generator has stepped in between) keep the first clock."""

    def __init__(self, mon: Any, only: Iterable[torch.optim.Optimizer] | torch.optim.Optimizer | None) -> None:
        self.mon = mon
        if isinstance(only, torch.optim.Optimizer):
            only = [only]
        self._only = {id(o) for o in only} if only is not None else None
        self._opts: dict[int, _OptState] = {}
        self._n_seen = 0  # optimizers seen: each gets its own index
        self.primary: int | None = None  # id() of the primary optimizer, once one has stepped
        self.closure_tail: Any = None  # the optimizer whose closure is being re-evaluated (LBFGS)
        self._pre_done: set[int] = set()  # optimizers whose step record ran inside their closure
        self._step_nest: dict[int, tuple[int, int]] = {}  # id(opt) -> (monitor step, hooked steps open)
        self._schedulers_seen: set[int] = set()
        self._clip_noted = False  # clip_grad_norm_'s max_norm written to the meta (once)
        self._since_primary: dict[int, int] = {}  # id(opt) -> its steps since the primary's last
        self._interleaved: set[int] = set()  # optimizers the primary has stepped between
        self._param_sets: dict[frozenset, int] = {}  # the tensors of each described optimizer -> its index
        self.rebuilt: dict[int, dict] = {}  # index -> rebuilds over the same tensors (_rebuilt_from)

    def state(self, opt: torch.optim.Optimizer) -> _OptState | None:
        st = self._opts.get(id(opt))
        if st is None or st.ref() is not opt:
            if self._only is not None and id(opt) not in self._only:
                return None
            old = self._rebuilt_from(opt)
            if old is not None:
                return old
            # a new index per optimizer: a freed optimizer's id() can be reused by the next
            # one (k-fold code builds one per fold), which must not overwrite its record
            st = _OptState(self._n_seen, opt)
            self._n_seen += 1
            self._opts[id(opt)] = st
            if self.primary is None:
                self.primary = id(opt)
        return st

    def _rebuilt_from(self, opt: torch.optim.Optimizer) -> _OptState | None:
        """An optimizer built anew over exactly the tensors of an earlier one that no longer
        exists (``@property def optimizer(self): return Adam(self.parameters())`` stepped as
        ``model.optimizer.step()``, or one rebuilt per epoch to set its rate): it continues
        the earlier one's record (same index, same series) and is counted, instead of being
        described, searched for schedulers and given series of its own each time (a run
        rebuilding it every step went 50x slower and grew without bound). Its state (Adam's
        moments, momentum) starts from zero each time: ``optimizer_rebuilt`` says how often."""
        if not self._param_sets:
            return None
        key = frozenset(id(q) for g in opt.param_groups for q in g["params"])
        index = self._param_sets.get(key)
        if index is None:
            return None
        old_id, old = next(((k, s) for k, s in self._opts.items() if s.index == index), (None, None))
        if old is None or old.ref() is not None:
            return None  # a second optimizer alive beside the first: its own record
        st = _OptState(index, opt)
        st.described, st.fired, st.ids, st.pnames, st.gkeys = True, old.fired, old.ids, old.pnames, old.gkeys
        del self._opts[old_id]
        self._opts[id(opt)] = st
        if self.primary == old_id:
            self.primary = id(opt)
        for d in (self._since_primary, self._step_nest):
            if old_id in d and id(opt) not in d:  # (the new one's step has its own nest entry)
                d[id(opt)] = d.pop(old_id)
        if old_id in self._interleaved:
            self._interleaved.add(id(opt))
        n = self.rebuilt.setdefault(index, {"rebuilds": 0, "first_step": self.mon.step})
        n["rebuilds"] += 1
        n["last_step"] = self.mon.step
        if n["rebuilds"] & (n["rebuilds"] - 1) == 0:  # 1, 2, 4, 8, ...: a few writes, and close() writes the last
            self.mon.writer.meta("optimizer_rebuilt", self.rebuilt)
        return st

    def live(self) -> list[torch.optim.Optimizer]:
        """The optimizers seen to step that still exist, in the order first seen."""
        return [o for o in (st.ref() for st in self._opts.values()) if o is not None]

    def primary_optimizer(self) -> torch.optim.Optimizer | None:
        st = self._opts.get(self.primary) if self.primary is not None else None
        return st.ref() if st is not None else None

    # ------------------------------------------------------------------ schedulers
    def on_scheduler(self, sched: Any) -> None:
        if id(sched) in self._schedulers_seen:
            return
        self._schedulers_seen.add(id(sched))
        self.mon.writer.event(self.mon.step, "scheduler", type(sched).__name__, context.scheduler_summary(sched))

    def _find_schedulers(self, opt: torch.optim.Optimizer) -> None:
        """Schedulers made before the monitor started (``watch()`` around the loop only):
        found once per optimizer among the objects that refer to it."""
        import gc

        from torch.optim.lr_scheduler import LRScheduler

        for ref in gc.get_referrers(opt):
            cands = [ref] if isinstance(ref, LRScheduler) else (
                [o for o in gc.get_referrers(ref) if isinstance(o, LRScheduler)] if isinstance(ref, dict) else [])
            for sched in cands:
                if getattr(sched, "optimizer", None) is opt:
                    self.on_scheduler(sched)

    # ------------------------------------------------------------------ hooks
    def on_clip(self, total: Any, max_norm: Any = None) -> None:
        if isinstance(total, torch.Tensor) and total.numel() == 1:
            self.mon.rec.preclip.append(total.detach().reshape(()))
        if not self._clip_noted and isinstance(max_norm, (int, float)):
            # once: the threshold, so that a clip at inf (called to log the norm) reads as no clip
            self._clip_noted = True
            self.mon.writer.meta("clip", {"max_norm": float(max_norm), "step": self.mon.step})

    def on_scaler_step_begin(self, scaler: Any, opt: torch.optim.Optimizer) -> None:
        st = self.state(opt)
        if st is not None:
            st.fired = False

    def on_scaler_step_end(self, scaler: Any, opt: torch.optim.Optimizer) -> None:
        st = self.state(opt)
        if st is not None and not st.fired:
            # GradScaler found inf/NaN and skipped optimizer.step(): still a step.
            self.on_step_pre(opt, skipped=True)
            self.on_step_post(opt)

    def on_step_pre_hook(self, opt: torch.optim.Optimizer, args: tuple, kwargs: dict) -> tuple | None:
        """The optimizer step pre-hook. A step given a closure (LBFGS, Lightning's automatic
        optimization) runs forward and backward inside ``step``: the record is taken when
        the closure's first evaluation returns (gradients there, weights not yet changed),
        and further evaluations of it in the same step (a line search) are not new losses.
        Returns the arguments with the closure wrapped, or None to leave them."""
        mon = self.mon
        # An optimizer subclass whose step() calls super().step() runs two hooked steps, one
        # inside the other: only the outer one is this optimizer's step.
        at = self._step_nest.get(id(opt))
        if at is not None and at[0] == mon.step:
            self._step_nest[id(opt)] = (mon.step, at[1] + 1)
            return None
        self._step_nest[id(opt)] = (mon.step, 1)
        # args[0] is the optimizer itself (torch calls the hooks with the step's own args)
        closure = kwargs.get("closure", args[1] if len(args) > 1 else None)
        if mon.backward.active:  # an optimizer after all: back to its clock
            mon.backward.stop()
        if not callable(closure):
            self.on_step_pre(opt)
            return None

        def wrapped():
            first = id(opt) not in self._pre_done and self.closure_tail is None
            out = closure()
            if first:
                self._pre_done.add(id(opt))
                mon.guard("optimizer-pre", self.on_step_pre, opt)
                self.closure_tail = opt
            return out

        if "closure" in kwargs:
            return args, {**kwargs, "closure": wrapped}
        return (args[0], wrapped, *args[2:]), kwargs

    # ------------------------------------------------------------------ the step's record
    def on_step_pre(self, opt: torch.optim.Optimizer, skipped: bool = False) -> None:
        st = self.state(opt)
        if st is None:
            return
        mon, rec = self.mon, self.mon.rec
        st.fired = True
        self._clock_hand(opt, st)
        if not st.described:
            st.described = True
            summary = context.optimizer_summary(st.index, opt, raw=not mon.live_roots())
            # the same tensors as an earlier optimizer (one built anew per epoch or stage):
            # counted once by the rules that compare the optimizers' tensors with the model's
            key = frozenset(id(q) for g in opt.param_groups for q in g["params"])
            mon.backward.reach.on_optimizer(st.index, key, own=bool(rec.losses))  # (its own backward: a loss)
            if key in self._param_sets:
                summary["same_params_as"] = self._param_sets[key]
            else:
                self._param_sets[key] = st.index
            mon.writer.meta(f"optimizer/{st.index}", summary)
            self._find_schedulers(opt)
            mon.models.describe()
        primary = id(opt) == self.primary
        tag = "" if primary else f"/opt{st.index}"
        names: list[str] = []
        tensors: list[torch.Tensor] = []
        lrs: dict[str, float] = {}  # host-side values: learning rates, counts
        self._loss(names, tensors, lrs, primary, tag)
        # gradients: per-parameter norms in one fused pass
        params, pnames = self._with_grads(opt, st)
        norms = grad_norms([p.grad for p in params])
        if rec.sampled:  # a count, no sync: 0 on every step means the loss never reaches these params
            lrs["grad_tensors" + tag] = float(len(params))
        if primary and rec.sampled and mon.backward.carried is not None:
            self._carried(names, tensors)
        if norms:
            tensors.append(torch.stack(norms))
            names.extend(st.gkeys)
        if rec.preclip:
            names.append("grad_norm_preclip" + tag)
            tensors.append(rec.preclip[-1])
            rec.preclip = []
        mon.scalers.add_scales(names, tensors)
        if rec.sampled:
            self._before_update(params, pnames, names, tensors)
        self._lrs(opt, st, names, tensors, lrs)
        if not primary:
            mon.recorder.defer(mon.step, names, tensors)  # read with the primary's transfer
            if lrs:
                mon.writer.scalars(mon.step, lrs)
            return
        mon.recorder.finish(names, tensors, lrs, params, pnames, norms, skipped, st.gkeys)

    def _clock_hand(self, opt: torch.optim.Optimizer, st: _OptState) -> None:
        """Who ends the monitor's steps (see the class docstring); host-side counts only."""
        k = id(opt)
        if k == self.primary:
            if self._since_primary:
                self._interleaved.update(self._since_primary)
                self._since_primary = {}
            return
        n = self._since_primary[k] = self._since_primary.get(k, 0) + 1
        if n >= 2 and k not in self._interleaved:
            old = self._opts.get(self.primary) if self.primary is not None else None
            self.primary, self._since_primary = k, {}
            self.mon.writer.event(self.mon.step, "step-clock",
                                  f"optimizer {st.index} ({type(opt).__name__}) now ends the steps"
                                  + (f": optimizer {old.index} stopped stepping" if old is not None else ""),
                                  {"optimizer": st.index})

    def _with_grads(self, opt: torch.optim.Optimizer, st: _OptState) -> tuple[list[torch.Tensor], list[str]]:
        """The optimizer's parameters that have a (dense) gradient, and their names. The names
        are a function of the parameters' ids (``Models.param_name`` keeps the first name it
        gives an id), so they are looked up and formatted again only when that list changes:
        on a transformer's 30 tensors the lookups were ~60 us a step."""
        params = [p for g in opt.param_groups for p in g["params"] if p.grad is not None and not p.grad.is_sparse]
        ids = list(map(id, params))
        if ids != st.ids:
            name = self.mon.models.param_name
            at = {id(p): (gi, pi) for gi, g in enumerate(opt.param_groups) for pi, p in enumerate(g["params"])}
            st.ids, st.pnames = ids, [name(p, st.index, *at[id(p)]) for p in params]
            st.gkeys = [f"grad_norm/{n}" for n in st.pnames]
        return params, st.pnames

    def _loss(self, names: list[str], tensors: list[torch.Tensor], lrs: dict[str, float],
              primary: bool, tag: str) -> None:
        """The loss: what was backpropagated since this optimizer's last chance to see it."""
        rec, bw = self.mon.rec, self.mon.backward
        if rec.losses:
            if len(rec.losses) == 1:  # the sum of one value is that value: three ops saved
                loss = rec.losses[0].float()
            else:
                loss = torch.stack([l.to(rec.losses[0].device).float() for l in rec.losses]).sum()
            bw.last_loss = loss
            fn = self.mon.loss_fns.fn_losses
            n = len(rec.losses)
            if primary and rec.sampled and n >= 2 and len(fn) == n and \
                    max(rec.train_fwds, len(rec.indices)) >= n:  # a batch per backward, not loss_a + loss_b
                # gradient accumulation: what was backpropagated against what the loss
                # functions returned; 1/k when each micro-batch loss is divided by k, 1 when not
                lrs["accum/backwards"] = float(len(rec.losses))
                names.append("accum/scale")
                tensors.append(loss / torch.stack([x.to(loss.device).float() for x in fn]).sum())
            elif primary and rec.sampled and n == 1 and self.mon.loss_fns.n_calls >= TERMS \
                    and len(self.mon.loss_fns.fn_kinds) == 1 and self.mon.loss_fns.fn_sum is not None:
                # one backward of many calls of one loss function (a loss per time step; a
                # detector's box + objectness + class terms are several functions, not this):
                # what was backpropagated over their sum; 1 when summed, 1/T when averaged
                lrs["loss/terms"] = float(self.mon.loss_fns.n_calls)
                names.append("loss/terms_scale")
                tensors.append(loss / self.mon.loss_fns.fn_sum.to(loss.device))
            rec.losses = []
        elif not bw.since_step and bw.last_loss is not None:
            loss = bw.last_loss  # a second optimizer stepping on the same backward
        else:
            loss = None
        bw.since_step = False
        if loss is not None:
            names.append("loss" + tag)
            tensors.append(loss)

    def _carried(self, names: list[str], tensors: list[torch.Tensor]) -> None:
        """The gradient the step's first backward started from, against the step's own."""
        cparams, carried, before = self.mon.backward.carried
        now = [p.grad for p in cparams if p.grad is not None and not p.grad.is_sparse]
        if now and before and not any(g is b for g in now for b in before):
            carried = 0.0  # every .grad replaced since (assigned by hand): nothing carried into backward
        if now:
            names.extend(["grad_carried", "grad_carried_ref"])
            ref = total_norm(grad_norms(now))
            c = carried.to(ref.device) if isinstance(carried, torch.Tensor) else torch.full((), float(carried),
                                                                                         device=ref.device)
            tensors.append(torch.stack([c.float(), ref]))  # (a CPU float copied in would be a sync)

    def _before_update(self, params: list[torch.Tensor], pnames: list[str], names: list[str],
                       tensors: list[torch.Tensor]) -> None:
        """Sampled steps: float16 underflow of the gradients, and a copy of the parameters
        for the update ratio (see _update_ratio)."""
        mon, rec = self.mon, self.mon.rec
        t0 = mon.timer()
        uf = underflow_fraction([p.grad for p in params])
        if uf:
            tensors.append(torch.stack(uf))
            names.extend(f"grad_underflow/{n}" for n in pnames)
        rec.before_params = [p for p in params]
        rec.before = [p.detach().clone() for p in params]
        rec.extra_time += mon.timer() - t0

    @staticmethod
    def _lrs(opt: torch.optim.Optimizer, st: _OptState, names: list[str], tensors: list[torch.Tensor],
             lrs: dict[str, float]) -> None:
        for gi, g in enumerate(opt.param_groups):
            lr = g.get("lr")
            if isinstance(lr, torch.Tensor):
                names.append(f"lr/{st.index}/{gi}")
                tensors.append(lr.detach().reshape(-1)[:1])
            elif lr is not None:
                lrs[f"lr/{st.index}/{gi}"] = float(lr)

    def on_step_post(self, opt: torch.optim.Optimizer) -> None:
        mon = self.mon
        at = self._step_nest.get(id(opt))
        if at is not None and at[1] > 1 and at[0] == mon.step:
            self._step_nest[id(opt)] = (at[0], at[1] - 1)  # the inner step of a nested pair
            return
        self._step_nest.pop(id(opt), None)
        self.closure_tail = None
        if id(opt) in self._pre_done:
            self._pre_done.discard(id(opt))
        st = self._opts.get(id(opt))
        if st is None:
            return
        if id(opt) != self.primary:
            return
        mon.backward.carry_pending, mon.backward.carried = True, None
        rec = mon.rec
        if rec.sampled and rec.before and rec.before_params:  # empty: no param had a gradient
            self._update_ratio()
        mon.end_step()

    def _update_ratio(self) -> None:
        """Sampled steps: each parameter's norm and the norm of its update over it (read
        with the next step's transfer: no sync of its own)."""
        mon, rec = self.mon, self.mon.rec
        t0 = mon.timer()
        after = [p.detach() for p in rec.before_params]
        delta = torch._foreach_sub(after, rec.before)
        dn = grad_norms(delta)
        pn = grad_norms(after)
        names = [mon.models.param_names.get(id(p), f"param{i}") for i, p in enumerate(rec.before_params)]
        rec.before = None
        rec.before_params = None
        rec.extra_time += mon.timer() - t0
        mon.recorder.defer(mon.step, [], [torch.stack(dn), torch.stack(pn)],
                           lambda step, flat: mon.writer.scalars(step, update_ratios(names, flat)))

