"""The loss functions of ``torch.nn.functional``, observed: what each returned this step
(some perhaps never backpropagated), evaluation losses, the label histogram, what each
loss function was given, and the target-in-input (leak) check of the first steps."""

from __future__ import annotations

import math
from typing import Any

import torch

from .binary import MultiLabelCounts, PositiveRates
from .columns import column_scale_ratio
from .target_match import (SHIFTS, ThresholdSplits, affine_copy, equal_where_kept, near_copy, same_memory, shift_shares,
                           threshold_candidate)

LEAK_STEPS = 20  # steps during which the loss's targets are compared with the model's inputs


# losses whose input is any real number (logits, a regression output): its sign and exact
# zeros at the first call say whether an activation clips it (one gather, once per loss)
_LOGIT_LOSSES = frozenset({"cross_entropy", "binary_cross_entropy_with_logits"})
_UNBOUNDED_INPUT = frozenset({"cross_entropy", "binary_cross_entropy_with_logits", "mse_loss", "l1_loss",
                              "smooth_l1_loss", "huber_loss"})


class LossFns:
    """Owned by the monitor; ``on_loss_fn`` is called through ``Monitor.guard``."""

    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self._seen: set[str] = set()
        self._eval: dict[str, list[torch.Tensor]] = {}  # evaluation losses by the loader that fed them
        self._fn_losses: list[torch.Tensor] = []  # loss-function outputs under grad since the step began
        self._fn_names: list[str] = []  # and the functions that made them
        self.n_calls = 0  # loss-function calls under grad this step (the list above is bounded)
        self.fn_sum: torch.Tensor | None = None  # their sum, on the device (one add a call)
        self.fn_kinds: set[str] = set()  # the loss functions called this step
        self.taken_names: list[str] = []
        self._leak_inputs: list[tuple[str, torch.Tensor]] = []  # the model's latest inputs, first steps only
        self._leak_found = False
        self._splits = ThresholdSplits()
        self._next_token_done = False
        self._labels: torch.Tensor | None = None  # counts of the paths below the class-dimension one
        # the class-dimension counts, by class count C: int64 [below 0, class 0 .. C-1, C and above],
        # added to in place (one clamp, one add, one scatter_add_ a call: the step's cheapest
        # way to count without a sync), folded into ``label_counts`` when it is read
        self._by_c: dict[int, list[torch.Tensor]] = {}
        self.multi = MultiLabelCounts(mon)  # binary targets of several tags, or a dense map
        self.rates = PositiveRates(mon)

    @property
    def fn_losses(self) -> list[torch.Tensor]:
        return self._fn_losses

    def take_fn_losses(self) -> list[torch.Tensor]:
        """This step's loss-function outputs, handed over once (their names stay in
        ``taken_names`` until the next call)."""
        out = self._fn_losses
        self.taken_names = self._fn_names
        self.n_calls, self.fn_sum, self.fn_kinds = 0, None, set()
        if out:
            self._fn_losses, self._fn_names = [], []
        return out

    @staticmethod
    def classification_loss(names: list[str], vals: list[float]) -> dict[str, float]:
        """``loss/ce``: the mean of the step's cross_entropy / nll_loss outputs, from values
        the step's gather already read. The rules compare it with ln C (a uniform guess);
        the backpropagated loss may hold other terms (a KL, a second head, a GAN's D+G)."""
        ce = [v for n, v in zip(names, vals) if n in ("cross_entropy", "nll_loss") and math.isfinite(v)]
        return {"loss/ce": sum(ce) / len(ce)} if ce else {}

    def note_inputs(self, args: tuple, kwargs: dict) -> None:
        """The model's latest inputs, for the leak check (first LEAK_STEPS steps) and the
        label-conflict fingerprints. A later forward of the step whose float inputs were all
        computed by autograd (non-leaf) is fed another root's output (``head(encoder(x))`` called from the loop):
        not the data, whose rows stay those of the first (bench/real 368)."""
        if self.mon.rec.train_fwds > 1:
            xs = [a for a in (*args, *kwargs.values()) if isinstance(a, torch.Tensor)]
            if xs and all(x.is_floating_point() and x.grad_fn is not None for x in xs):
                if self.mon.conflicts.fwds.get(self.mon.step, 0) > 1:
                    self.mon.conflicts.drop_pending()  # two towers fed it: neither's rows are the batch's
                    self._leak_inputs = []
                return
        self.mon.conflicts.note_inputs(args, kwargs)
        if self.mon.step < LEAK_STEPS and not self._leak_found:
            self._leak_inputs = [(f"argument {i}", a) for i, a in enumerate(args) if isinstance(a, torch.Tensor)] + \
                [(f"argument {k!r}", a) for k, a in kwargs.items() if isinstance(a, torch.Tensor)]

    def end_leak_check(self) -> None:
        self._leak_inputs = []  # the leak check is over: drop the references

    def on_loss_fn(self, name: str, input: Any, target: Any, out: Any, weight: Any = None,
                   summed: int | None = None) -> None:
        if not isinstance(out, torch.Tensor) or out.numel() != 1:
            return
        if not torch.is_grad_enabled():
            ev = self._eval.setdefault(self.mon.batches.eval_loader, [])
            if len(ev) < 100_000:  # bounded: a very long evaluation keeps its first 100 000 losses
                v = out.detach().float().reshape(())
                if summed is not None and isinstance(target, torch.Tensor) and isinstance(input, torch.Tensor):
                    # reduction="sum" (a validation loop that divides by the set's size later): per term,
                    # as a mean-reduced call would give: class targets not ignored, rows of soft labels
                    if name in ("cross_entropy", "nll_loss"):
                        n = max(1, target.numel() // max(1, target.shape[1])) if target.is_floating_point() \
                            and target.dim() > 1 else (target != summed).sum().clamp_min(1)  # (a tensor: no sync)
                    else:
                        n = max(1, input.numel())
                    v = v / n
                ev.append(v)
            return
        self.n_calls += 1
        d = out.detach()
        if self.mon.rec.sampled:  # (for loss/terms, read on sampled steps only: no add elsewhere)
            self.fn_sum = d.float().reshape(()) if self.fn_sum is None else self.fn_sum + d.float().reshape(())
            self.fn_kinds.add(name)
        if len(self._fn_losses) >= 64:  # bounded: a loop that never steps keeps its last 64
            del self._fn_losses[:32]
            del self._fn_names[:32]
        self._fn_losses.append(d if d.dim() == 0 else d.reshape(()))
        self._fn_names.append(name)
        if self._leak_inputs and self.mon.step < LEAK_STEPS and isinstance(target, torch.Tensor):
            self._check_leak(name, target)
            if not self._next_token_done and name in ("cross_entropy", "nll_loss") and not target.is_floating_point():
                self._check_next_token(name, target.detach())
        fb = self.mon.rec.fwd_batch
        if fb is not None and isinstance(target, torch.Tensor) and len(fb["targets"]) < 4:
            fb["targets"].append(target)  # the loss's target, when it never went through the model
        if name not in self._seen:
            self._describe(name, input, target, weight)
        if not isinstance(target, torch.Tensor):
            return
        self.mon.conflicts.on_target(name, target)
        if name.startswith("binary_cross_entropy"):
            self.rates.on_call(name, input, target)
        if name in ("cross_entropy", "nll_loss") and not target.is_floating_point():
            # (an integer tensor carries no graph: no detach; a 1-d one needs no reshape)
            self._count_classes(input, target if target.dim() == 1 else target.reshape(-1))
        elif (name.startswith("binary_cross_entropy") and target.is_floating_point()
              and (target.dim() == 1 or (target.dim() == 2 and target.shape[1] == 1))):
            # one binary label per sample (multi-label targets have no single class prior):
            # bins 0 and 1 of a two-class count (a NaN target counts as 0)
            t = target.detach().reshape(-1)
            entry = self._entry(2, t)
            entry[0].scatter_add_(0, (t >= 0.5).long() + 1, entry[1])
        elif name.startswith("binary_cross_entropy") and target.is_floating_point() and target.dim() >= 2:
            self.multi.add(target.detach())  # multi-label rows, or a dense map's elements

    def _check_leak(self, name: str, target: torch.Tensor) -> None:
        """During the first LEAK_STEPS steps: is the loss's target one of the model's own
        inputs (``y = x``: an unshifted next-token target), or a column of a table the
        model receives (the label among the features)? Exact equality only; integer targets
        for the first (a float target equal to the input is an autoencoder). Costs one
        comparison per input for 20 steps (a sync on GPU), then nothing.

        A target the model was handed as an argument (nanoGPT's ``model(X, Y)``, Hugging
        Face's ``labels=``: the model computes its own loss) reaches the loss as that same
        memory: that argument is the target's slot, not an input, unless the same tensor
        fills two arguments (``model(X, X)``: y = x) or it is the only argument (a
        ``forward(idx)`` that forgot to shift computes its loss on ``idx``)."""
        t = target.detach()
        own = [i for i, (_, x) in enumerate(self._leak_inputs) if same_memory(x, t)]
        if len(self._leak_inputs) < 2:
            own = []  # forward(idx) computing its loss on idx itself has no target slot: y = x
        if len(own) >= 2 and not t.is_floating_point():  # (a float one is an autoencoder's model(x, x))
            self._leak(self.mon.step, name, f"the target of {name} is the model's "
                       f"{self._leak_inputs[own[0]][0]} itself (y = x)", self._leak_inputs[own[0]][0])
            return
        # Each candidate is a pair of device tensors [holds, column] read with the step's
        # transfer (no sync of its own); the first that holds is the leak.
        cands: list[tuple[str, str]] = []
        flags: list[torch.Tensor] = []
        # a constant target (an all-zero batch of rare events) equals any constant column by
        # chance: such a batch proves nothing (folded into the flag, no sync of its own)
        varied = (t.amax() != t.amin()).float() if t.numel() > 1 and t.dtype != torch.bool else None
        for i, (where, x) in enumerate(self._leak_inputs):
            if x.device != t.device or x.numel() < 2 or i in own:
                continue
            if not t.is_floating_point() and not x.is_floating_point() and x.numel() == t.numel() \
                    and x.numel() >= 8:
                same = equal_where_kept(x, t) * (1 if varied is None else varied)
                flags.append(torch.cat([same, same.new_zeros(1)]))
                cands.append((where, f"the target of {name} is the model's {where} itself (y = x)"))
            elif x.ndim == 2 and x.is_floating_point() and x.shape[0] >= 8 and x.shape[1] > 1 \
                    and t.numel() == x.shape[0] and t.dtype != torch.bool:
                # a table of float features only: an integer [B, T] input is a token sequence,
                # whose column t+1 is the honest target of a loss taken per time step
                # (char-rnn's criterion per step); a label among integer id columns is missed
                same = (x == t.reshape(-1, 1).to(x.dtype)).all(0)
                if x.shape[0] >= 16:
                    same = same | affine_copy(x, t)
                # argmax of a 0/1 vector: the first column that equals the target
                flags.append(torch.stack([same.any().float() * varied, same.int().argmax().float()]))
                cands.append((where, f"the target of {name} is column \0 of the model's {where} (itself, or "
                                     "rescaled: standardised with the features)"))
                if x.shape[0] >= 64:
                    near_copy(cands, flags, name, where, x, t, varied)
                    threshold_candidate(cands, flags, name, where, self._splits.flag(where, x, t, self.mon.step), varied)
            elif x.ndim == 3 and x.is_floating_point() and x.shape[0] >= 2 and x.shape[1] > 1 and x.shape[2] > 1 \
                    and t.numel() == x.shape[0] * x.shape[1] and t.shape[:2] == x.shape[:2] and t.dtype != torch.bool:
                # a sequence of feature vectors (B, T, F) whose target at step t is feature j at
                # the same step t: the current value handed in, not the lagged one (DeepAR fed y_t)
                same = (x == t.reshape(x.shape[0], x.shape[1], 1).to(x.dtype)).all(1).all(0)
                flags.append(torch.stack([same.any().float() * varied, same.int().argmax().float()]))
                cands.append((where, f"the target of {name} is feature \0 of the model's {where} "
                                     "at the same time step"))
        if not cands:
            return

        def decide(step: int, vals: list[float]) -> None:
            if self._leak_found:
                return
            for j, (where, what) in enumerate(cands):
                if vals[2 * j] > 0:
                    self._leak(step, name, what.replace("\0", str(int(vals[2 * j + 1]))), where)
                    return

        self.mon.recorder.defer(self.mon.step, [], flags, decide)

    def _check_next_token(self, name: str, t: torch.Tensor) -> None:
        """Once: are the class targets an integer input of the model shifted by one
        (``x[:, 1:] == y[:, :-1]``, flattened or not), or by another k (see
        :func:`.target_match.shift_shares`)? A language model's next tokens, whose class
        frequencies are the language's: class-imbalance's long tail is no fault there
        (makemore's letters); shifted twice, each position is scored against the token two
        ahead (label-misaligned). A few comparisons per integer input, read with the step's
        transfer."""
        xs = [(w, x) for w, x in self._leak_inputs if not x.is_floating_point() and x.dtype != torch.bool
              and x.device == t.device and x.dim() >= 2 and x.shape[-1] >= 3 and 0 < t.numel() <= x.numel()
              and not same_memory(x, t)]
        got = [(w, sh) for w, x in xs if (sh := shift_shares(x, t)) is not None]
        if not got:
            return
        self._next_token_done = True
        wheres = [w for w, _ in got]  # (names only: the callback keeps no batch alive)

        def write(step: int, vals: list[float]) -> None:
            per = [vals[i * SHIFTS:(i + 1) * SHIFTS] for i in range(len(wheres))]
            best = max(range(len(per)), key=lambda i: max(per[i][1:]))
            k = max(range(1, SHIFTS), key=per[best].__getitem__)
            if per[best][k] >= 0.5:
                self.mon.writer.meta("targets/next_token", {"loss_fn": name, "input": wheres[best],
                                                            "share": round(per[best][k], 4), "shift": k,
                                                            "step": step})

        self.mon.recorder.defer(self.mon.step, [], [torch.cat([sh for _, sh in got])], write)

    def _leak(self, step: int, name: str, what: str, where: str) -> None:
        self._leak_found = True
        self._leak_inputs = []
        self.mon.writer.event(step, "target-in-input", what, {"loss_fn": name, "input": where,
                                                              "near": " is nearly column " in what or " threshold of column " in what})

    @property
    def label_counts(self) -> torch.Tensor | None:
        """The label histogram since the previous one (float32, one bin per class), or None."""
        if self._by_c:
            by_c, self._by_c = self._by_c, {}
            for c, (acc, _) in sorted(by_c.items()):
                self._add_label_counts(acc[1 : c + 1].float())
        return self._labels

    def _count_classes(self, input: Any, t: torch.Tensor) -> None:
        """Count integer targets per class of the input's class dimension, in place on the
        device (see ``_by_c``; a target outside ``[0, C)``, an ``ignore_index``, lands in an
        end bin that is never read)."""
        if not isinstance(input, torch.Tensor) or input.dim() < 1:
            self._add_label_counts(_class_counts(input, t))
            return
        c = int(input.shape[1] if input.dim() >= 2 else input.shape[0])
        entry = self._entry(c, t)
        entry[0].scatter_add_(0, (t if t.dtype == torch.int64 else t.long()).clamp(-1, c) + 1, entry[1])

    def _entry(self, c: int, t: torch.Tensor) -> list[torch.Tensor]:
        """The counts of ``c`` classes on ``t``'s device, and a one expanded to ``t``'s length."""
        lab = self._labels if self._labels is not None else next((a for a, _ in self._by_c.values()), None)
        if lab is not None and lab.device != t.device:
            self._labels, self._by_c = None, {}  # another device: its counts start over (as below)
        entry = self._by_c.get(c)
        if entry is None:  # [the counts, a one expanded to the targets' length (a view: no memory)]
            entry = self._by_c[c] = [torch.zeros(c + 2, dtype=torch.int64, device=t.device),
                                     torch.ones((), dtype=torch.int64, device=t.device).expand(t.numel())]
        if entry[1].numel() != t.numel():
            entry[1] = entry[1][:1].expand(t.numel()) if entry[1].numel() else entry[0].new_ones(()).expand(t.numel())
        return entry

    def _add_label_counts(self, counts: torch.Tensor) -> None:
        lc = self._labels
        if lc is None or lc.device != counts.device:
            self._labels = counts
            self._by_c = {c: e for c, e in self._by_c.items() if e[0].device == counts.device}
        else:
            n = max(len(lc), len(counts))
            self._labels = torch.nn.functional.pad(lc, (0, n - len(lc))) + torch.nn.functional.pad(
                counts, (0, n - len(counts)))

    def defer_labels(self) -> None:
        """The label histogram since the previous one, as an event, read with the step's
        transfer (sampled steps and close)."""
        def write(step: int, counts: list[float]) -> None:
            self.mon.writer.event(step, "labels", "label histogram since the previous one",
                                  {"counts": {str(i): c for i, c in enumerate(counts) if c}})

        self.mon.recorder.defer(self.mon.step, [], [self.label_counts], write)
        self._labels = None

    def _describe(self, name: str, input: Any, target: Any, weight: Any = None) -> None:
        """Once per loss function: what it was given (loss-mismatch reads it); class weights
        of all ones (``pos_weight=1``) weigh nothing (one sync, once)."""
        self._seen.add(name)
        weighted = any(not bool((w.detach() == 1).all()) for w in weight or ())

        def desc(t: Any) -> Any:
            return {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", "")} if isinstance(
                t, torch.Tensor) else type(t).__name__

        mon = self.mon
        info = {"step": mon.step, "input": desc(input), "target": desc(target), "weighted": weighted}
        ws = [w for w in weight or () if isinstance(w, torch.Tensor) and w.dim() == 1 and 1 < w.numel() <= 100]
        if weighted and len(ws) == 1 and name in ("cross_entropy", "nll_loss"):
            info["class_weights"] = [round(float(x), 6) for x in ws[0].detach().float().cpu()]  # (class-imbalance)
        mon.writer.meta(f"loss_function/{name}", info)
        if isinstance(target, torch.Tensor) and target.is_floating_point() and target.numel():
            t = target.detach().float().reshape(-1)
            stats = torch.stack([t.min(), t.max(), (t == t.round()).float().mean(), (t < 0).float().mean()])
            mon.recorder.defer(mon.step, [f"loss_fn/{name}/target_{k}" for k in ("min", "max", "integral", "neg")],
                               [stats])
            if name in _UNBOUNDED_INPUT and name not in _LOGIT_LOSSES and target.dim() == 2 and target.shape[0] >= 8 \
                    and target.shape[1] >= 2:  # several regression targets: their scales (data-unnormalized)
                mon.recorder.defer(mon.step, [f"loss_fn/{name}/target_colscale"], [column_scale_ratio(target)])
        if name in _UNBOUNDED_INPUT and isinstance(input, torch.Tensor) and input.is_floating_point() \
                and input.numel():
            # logits and regression outputs: unconstrained reals, exactly 0 almost never; a
            # ReLU in front of the loss makes them >= 0 with many exact zeros (read by
            # loss-mismatch for logits, dead-relu for a regression head)
            x = input.detach().float()
            keys = ["min", "max", "zero"]
            parts = [x.min(), x.max(), (x == 0).float().mean()]
            if x.dim() >= 2 and (x.shape[1] if name == "cross_entropy" else x.shape[-1]) >= 2:
                # rows that sum to 1 are probabilities (a softmax): regressed onto the target, or
                # given to cross_entropy, which applies log_softmax again (its classes: dim 1)
                keys.append("rowsum_dev")
                parts.append((x.sum(1 if name == "cross_entropy" else -1) - 1).abs().max())
            mon.recorder.defer(mon.step, [f"loss_fn/{name}/input_{k}" for k in keys], [torch.stack(parts)])

    def eval_tensors(self, names: list[str], tensors: list[torch.Tensor]) -> list[str]:
        """Append each evaluation loader's mean loss to the step's gather; returns the names."""
        out = []
        for name, ev in self._eval.items():
            if ev:
                tensors.append(torch.stack([e.to(ev[0].device) for e in ev]).mean().reshape(1))
                names.append(name)
                out.append(name)
        self._eval = {}
        return out

    def note_skipped(self, values: dict[str, float], fn_vals: list[float], step: int,
                     unused: list | None = None) -> None:
        """A loss function's output that was non-finite while the backpropagated loss was
        finite (or absent): the script's own check skipped it (``if torch.isnan(loss):
        continue``), so the run looked healthy. Recorded as ``loss/skipped`` with an event
        naming the skipped batch's dataset indices; it triggers like a non-finite loss."""
        bad = [v for v in fn_vals if not math.isfinite(v)]
        loss = values.get("loss")
        if not bad or (loss is not None and not math.isfinite(loss)):
            return
        values["loss/skipped"] = bad[0]
        idx = self.mon.batches.take_unused_indices(unused)
        self.mon.writer.event(step, "loss-skipped",
                              f"{len(bad)} non-finite loss(es) computed and never backpropagated before step "
                              f"{step}", {"count": len(bad), "value": bad[0], "indices": idx})


def _class_counts(input: Any, t: torch.Tensor) -> torch.Tensor:
    """Counts per class of integer targets, on their device and without a sync (a
    ``bincount`` on CUDA reads the largest target first): the classes are the input's class
    dimension (``(N, C, ...)`` or ``(C,)``). A target outside ``[0, C)`` is an
    ``ignore_index`` (-100; 255 in segmentation masks) and is not counted."""
    if isinstance(input, torch.Tensor) and input.dim() >= 1:
        c = int(input.shape[1] if input.dim() >= 2 else input.shape[0])
    else:  # no logits to read C from: a CPU bincount, or nothing on a GPU
        if t.is_cuda:
            return torch.zeros(0, device=t.device)
        return torch.bincount(t.clamp(min=0), weights=(t >= 0).float())
    ok = (t >= 0) & (t < c)
    return torch.zeros(c, device=t.device).scatter_add_(0, t.clamp(0, max(c - 1, 0)).long(), ok.float())

