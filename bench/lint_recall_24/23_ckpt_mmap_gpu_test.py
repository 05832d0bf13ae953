"""GPU test: a saved checkpoint can be memory-mapped back and matches the live model."""
import pytest
import torch
from torch import nn


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(16, 16)
        self.b = nn.Linear(16, 4)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_checkpoint_roundtrip(tmp_path):
    model = Tiny().cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for _ in range(3):
        loss = model(torch.randn(8, 16, device="cuda")).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

    ckpt_path = tmp_path / "checkpoint.pt"
    torch.save(model.state_dict(), ckpt_path)
    state_dict = torch.load(str(ckpt_path), mmap=True)  # expect: torch-load-unsafe
    for name, tensor in model.state_dict().items():
        torch.testing.assert_close(state_dict[name], tensor.cpu())
