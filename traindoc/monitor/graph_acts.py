"""Activations written as functions (``torch.sigmoid(x @ W1)``, ``F.relu(self.fc(x))``,
``torch.tanh`` in a forward), read from the loss's autograd graph at the backward.

The forward hooks see the outputs of modules only: a network of raw weight tensors, or a
model whose forward applies its activations as functions, has no ``act/*/saturated`` or
``act/*/dead`` series. Their outputs are still in the graph: SigmoidBackward0,
TanhBackward0 and ReluBackward0 keep their result (``_saved_result``) for the backward,
so one walk of the graph from the loss finds them without a hook, a copy or a patch.

Names: ``sigmoid#1``, ``tanh#2``, ... numbered from the input (the node farthest from
the loss first); the one reached from the loss through no weight op (a matmul, linear,
convolution) is the model's output and named ``...(output)`` (a confident classifier's
output sigmoid sits at 0/1 by design; the rules treat it as the last layer).

Not read as saturation: the sigmoids and tanhs of a model with a recurrent module, of one that
runs more than twice a step, or of a graph with more than ``UNROLLED`` of the same kind (the
gates and states of a recurrence unrolled over time, open or closed by design).

Cost: a Python walk of at most ``NODES`` graph nodes on at most ``WALKS`` sampled steps
of the first ``STEPS``, only when no module hook gave a saturation or dead-unit statistic
that step; then the same reductions as a module's statistics.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Any

import torch

from .quantities import activation_stats

NODES = 4000  # a bigger graph is a model with modules: skipped
WALKS = 16
STEPS = 300
UNROLLED = 8  # more sigmoids (or tanhs) than this in one graph: a recurrence unrolled over time
_KINDS = {"SigmoidBackward0": ("sigmoid", torch.nn.Sigmoid(), "saturated"),
          "TanhBackward0": ("tanh", torch.nn.Tanh(), "saturated"),
          "ReluBackward0": ("relu", torch.nn.ReLU(), "dead")}
_WEIGHT_OPS = ("Mm", "Addmm", "Bmm", "Mv", "Convolution", "Linear", "Matmul", "Embedding", "Baddbmm")


def _walk(loss: torch.Tensor) -> list[tuple[Any, int, bool]] | None:
    """The nodes of ``loss``'s graph, breadth first: (node, distance from the loss, reached
    through no weight op), or None (no graph, or more than ``NODES`` nodes)."""
    root = loss.grad_fn
    if root is None:
        return None
    seen = {id(root)}
    queue = deque([(root, 0, True)])
    out = []
    while queue:
        node, dist, head = queue.popleft()
        out.append((node, dist, head))
        name = type(node).__name__
        below = head and name not in _KINDS and not name.startswith(_WEIGHT_OPS)
        for nxt, _ in node.next_functions:
            if nxt is not None and id(nxt) not in seen:
                if len(seen) >= NODES:
                    return None
                seen.add(id(nxt))
                queue.append((nxt, dist + 1, below))
    return out


def functional_activations(loss: torch.Tensor) -> list[tuple[str, str, torch.Tensor]]:
    """(name, statistic, statistic's value) for each functional activation in ``loss``'s
    graph, input first; [] for a graph of more than ``NODES`` nodes."""
    found = [(dist, _KINDS[type(n).__name__], head, n) for n, dist, head in _walk(loss) or ()
             if type(n).__name__ in _KINDS]
    found.sort(key=lambda r: -r[0])
    out = []
    counts: dict[str, int] = {}
    for _, (name, module, stat), head, node in found:
        if head and stat == "dead":
            continue  # a ReLU on the output: dead-relu's clipped-head check reads the loss's input
        try:
            y = node._saved_result
        except RuntimeError:  # freed (a graph already backpropagated with retain_graph=False)
            continue
        if not isinstance(y, torch.Tensor) or not y.is_floating_point() or y.dim() < 2 or y.numel() == 0:
            continue
        v = activation_stats(module, y).get(stat)
        if v is None:
            continue
        counts[name] = counts.get(name, 0) + 1
        out.append((f"{name}#{counts[name]}" + (" (output)" if head else ""), stat, v))
    return out


def graph_leaves(loss: torch.Tensor) -> set[int] | None:
    """ids of the leaf tensors ``loss``'s gradient flows into (the weights of a network of
    raw tensors), or None (no graph, or more than ``NODES`` nodes: unknown)."""
    leaves = graph_leaf_tensors(loss)
    return {id(v) for v in leaves} if leaves else None


def graph_leaf_tensors(loss: torch.Tensor) -> list[torch.Tensor] | None:
    """The leaf tensors ``loss``'s gradient flows into, or None (as :func:`graph_leaves`)."""
    return [v for n, _, _ in _walk(loss) or () if isinstance(v := getattr(n, "variable", None), torch.Tensor)] or None


def graph_params(loss: torch.Tensor) -> list[torch.Tensor] | None:
    """The leaf tensors ``loss``'s gradient flows into, the input side first (furthest from
    the loss): the weights of a network of raw tensors trained without an optimizer; None
    for no graph or one of more than ``NODES`` nodes."""
    nodes = _walk(loss)
    found = [(-dist, i, v) for i, (n, dist, _) in enumerate(nodes or ())
             if isinstance(v := getattr(n, "variable", None), torch.Tensor) and v.requires_grad]
    return [v for _, _, v in sorted(found, key=lambda r: r[:2])] or None


class GraphActivations:
    """Owned by the backward clock: ``on_backward(loss)`` on sampled steps."""

    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self.walks = 0
        self._rnn: bool | None = None  # decided at the first walk

    def on_backward(self, loss: torch.Tensor) -> None:
        mon = self.mon
        rec = mon.rec
        if not rec.sampled or self.walks >= WALKS or mon.step >= STEPS or not loss.requires_grad:
            return
        if any(n.endswith(("/saturated", "/dead")) for n in rec.act_names):
            return  # the module hooks saw the activations
        self.walks += 1
        t0 = mon.timer()
        gates = self._recurrent()
        found = functional_activations(loss)
        kinds = Counter(name.split("#")[0] for name, _, _ in found)
        for name, stat, v in found:
            if stat == "saturated" and (gates or kinds[name.split("#")[0]] > UNROLLED):
                continue  # a recurrent cell's gates, or a recurrence unrolled in the forward (the
                # same activation more than 8 times): they open and close by design
            rec.act_names.append(f"act/{name}/{stat}")
            rec.act_vals.append(v)
        rec.extra_time += mon.timer() - t0

    def _recurrent(self) -> bool:
        """The model holds a recurrent module (LSTM, GRU, their cells), or runs more than twice a
        step (a cell unrolled by hand): its graph's sigmoids and tanhs are mostly gates, which
        saturate by design (the module hooks never looked inside an LSTM either)."""
        if self._rnn is None:
            self._rnn = any(isinstance(m, (torch.nn.RNNBase, torch.nn.RNNCellBase))
                            for _, root in self.mon.live_roots() for m in root.modules())
        fwds = self.mon.conflicts.fwds
        return self._rnn or fwds.get(self.mon.step, 0) > 2
