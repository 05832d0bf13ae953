"""Which optimizers' parameters each of the first backwards reaches: the mark of a GAN.

A generator's loss flows through the discriminator into both networks' parameters, while
each network's optimizer steps on a backward of its own; two independent models trained in
one loop, an actor whose advantage is detached from its critic, or an encoder/decoder pair
stepping on one shared loss do not have both. The rules read the meta ``loss_reach``
(``rules.util.adversarial``): per optimizer index, the backwards (0..3) whose gradient
reaches its parameters, whether it stepped on a backward of its own, and the optimizers
whose tensors overlap with its own (G's and D's are disjoint). Costs one walk of
the autograd graph for each of the first four backwards (a graph over ``graph_acts.NODES``
nodes is not walked: unknown), and nothing after.

The same walks give ``stray_leaves``: tensors the gradient reaches on the first backward
and again (the same objects, held by weak reference) on a later one, that no optimizer
holds: weights created with ``requires_grad=True`` outside ``nn.Parameter`` (kept in a
Python list), which ``model.parameters()`` never yields (params-not-updated). Tensors shaped
like a training forward's input, or like the data it is sliced from, are inputs that ask for
their gradient, not weights. Written only when there are some and an optimizer stepped (a
hand-written update has none).
"""

from __future__ import annotations

import math
import weakref
from typing import Any

import torch

from .graph_acts import graph_leaf_tensors

BACKWARDS = 4  # the first backwards whose graphs are read: one iteration of a GAN has two or three


class LossReach:
    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self.sets: list[set[int]] = []
        self.opts: dict[int, tuple[frozenset, bool]] = {}  # optimizer index -> (its tensors, own backward)
        self._written: Any = None
        self._first: dict[int, tuple[Any, tuple]] | None = None  # id -> (weak ref, shape) at the first backward
        self._kept: dict[int, tuple] = {}  # the first backward's leaves seen again later: id -> shape
        self._stray: Any = None

    def on_backward(self, loss: torch.Tensor) -> None:
        if len(self.sets) >= BACKWARDS or loss.grad_fn is None:
            return
        leaves = graph_leaf_tensors(loss) or []
        live = {id(t): t for t in leaves if t.requires_grad}
        self.sets.append(set(live))
        if self._first is None:
            self._first = {i: (weakref.ref(t), tuple(t.shape)) for i, t in live.items()}
        else:
            self._kept.update((i, shape) for i, (ref, shape) in self._first.items() if live.get(i) is ref() is not None)
        self._write()

    def on_optimizer(self, index: int, key: frozenset, own: bool) -> None:
        self.opts[index] = (key, own)
        self._write()

    def _write(self) -> None:
        if not self.opts:
            return
        doc = {str(i): {"reach": [b for b, s in enumerate(self.sets) if not key.isdisjoint(s)], "own": own,
                        # optimizers sharing tensors with this one (one rebuilt per epoch, a fine-tune phase)
                        "overlaps": [j for j, (k, _) in self.opts.items() if j != i and not key.isdisjoint(k)]}
               for i, (key, own) in self.opts.items()}
        if doc != self._written:
            self._written = doc
            self.mon.writer.meta("loss_reach", doc)
        held = frozenset().union(*(k for k, _ in self.opts.values()))
        inputs = getattr(getattr(self.mon, "conflicts", None), "input_shapes", ())
        stray = [list(s) for i, s in self._kept.items() if i not in held and not _input_like(s, inputs)]
        if stray != (self._stray or []):
            # rewritten when it changes, to empty too: a GAN's second optimizer may step only
            # after the first one, holding what looked stray until then
            self._stray = stray
            self.mon.writer.meta("stray_leaves", {"tensors": len(stray), "values": sum(math.prod(s) for s in stray),
                                                  "shapes": stray[:16]})


def _input_like(shape: tuple, inputs) -> bool:
    """A tensor shaped like a model input, or like the data it is sliced from (as many rows or
    more, the same row shape): a full-batch ``X`` or a dataset that asks for its gradient,
    not a weight."""
    return any(len(t) >= 1 and len(shape) == len(t) and shape[1:] == t[1:] and shape[0] >= t[0] for t in inputs)
