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
"""

from __future__ import annotations

from typing import Any

import torch

from .graph_acts import graph_leaves

BACKWARDS = 4  # the first backwards whose graphs are read: one iteration of a GAN has two or three


class LossReach:
    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self.sets: list[set[int]] = []
        self.opts: dict[int, tuple[frozenset, bool]] = {}  # optimizer index -> (its tensors, own backward)
        self._written: Any = None

    def on_backward(self, loss: torch.Tensor) -> None:
        if len(self.sets) >= BACKWARDS or loss.grad_fn is None:
            return
        self.sets.append(graph_leaves(loss) or set())
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
