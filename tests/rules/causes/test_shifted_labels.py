"""label-misaligned for next-token targets shifted twice (bench/real 330: the dataset
returns (w[:-1], w[1:]) and the loss shifts again, logits[:, :-1] against labels[:, 1:]):
the monitor compares the first cross-entropy targets with the model's token input at
shifts 0-3 and records the best (``targets/next_token``)."""

from __future__ import annotations

import pytest
import torch
from torch import nn

import traindoc

V = 24


def _train(tmp_path, shift):
    torch.manual_seed(0)
    succ = torch.randint(0, V, (V, 2))  # a Markov chain: each symbol has two successors
    seq = [0]
    for _ in range(5000):
        seq.append(int(succ[seq[-1], int(torch.rand(()) < 0.25)]))
    seq = torch.tensor(seq)
    emb, gru, head = nn.Embedding(V, 16), nn.GRU(16, 32, batch_first=True), nn.Linear(32, V)
    params = [*emb.parameters(), *gru.parameters(), *head.parameters()]
    opt = torch.optim.Adam(params, 3e-3)

    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb, self.gru, self.head = emb, gru, head

        def forward(self, x):
            return self.head(self.gru(self.emb(x))[0])

    model = LM()
    with traindoc.watch(out=tmp_path / "r"):
        for _ in range(60):
            i = torch.randint(0, len(seq) - 34, (16,))
            w = torch.stack([seq[j:j + 33] for j in i])
            x, y = w[:, :-1], w[:, 1:]
            logits = model(x)
            if shift == 2:  # shifted again in the loss, as a causal-LM head does
                logits, y = logits[:, :-1], y[:, 1:]
            loss = nn.functional.cross_entropy(logits.reshape(-1, V), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
    run = traindoc.open_run(tmp_path / "r")
    return run.meta.get("targets/next_token"), traindoc.diagnose(tmp_path / "r")


@pytest.mark.parametrize("shift", [1, 2])
def test_the_shift_of_next_token_targets(tmp_path, shift):
    nt, d = _train(tmp_path, shift)
    assert nt["shift"] == shift and nt["share"] == 1.0
    lm = [c for c in d.causes if c.name == "label-misaligned" and "positions ahead" in c.message]
    if shift == 2:
        assert lm and d.causes[0].name == "label-misaligned" and lm[0].severity == "error"
    else:
        assert not lm
