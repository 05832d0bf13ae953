"""Dataset indices recorded per step stay paired with their batch when a persistent-workers
iterator is abandoned (a peek ``next(iter(loader))``, a ``break`` mid-epoch) and reused:
replay and the per-sample findings read these indices."""

import torch
from torch import nn

import traindoc


def test_indices_match_the_batch_after_a_peek_and_a_break(tmp_path):
    n = 48
    ds = torch.utils.data.TensorDataset(torch.arange(n), torch.randn(n, 4))
    loader = torch.utils.data.DataLoader(ds, batch_size=4, shuffle=True, num_workers=1,
                                         persistent_workers=True, generator=torch.Generator().manual_seed(0))
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    served = []
    with traindoc.watch(out=tmp_path / "r"):
        next(iter(loader))  # peek for shapes: its prefetched indices never become a step
        for epoch in range(3):
            for i, (idx, x) in enumerate(loader):
                opt.zero_grad()
                model(x).pow(2).mean().backward()
                opt.step()
                served.append(idx.tolist())
                if epoch == 1 and i == 2:
                    break  # abandons the epoch with batches in flight
    run = traindoc.open_run(tmp_path / "r")
    assert len(served) == 12 + 3 + 12
    for step, want in enumerate(served):
        assert run.batch_indices(step).tolist() == want, step
