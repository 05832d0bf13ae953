# Source: https://github.com/google-research/flood-forecasting/pull/87
# Pitfall: the evaluation code restores epoch weights with torch.load and no weights_only=True; the
# file is fully unpickled, so a tampered checkpoint can execute code (FutureWarning in torch 2.4+).
# Reproduced in our own words, not the original code.
import logging
from pathlib import Path

import torch
import torch.nn as nn

LOGGER = logging.getLogger(__name__)


class DischargeLSTM(nn.Module):
    def __init__(self, n_inputs=12, hidden=64):
        super().__init__()
        self.lstm = nn.LSTM(n_inputs, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


class Tester:
    def __init__(self, run_dir, device="cpu"):
        self.run_dir = Path(run_dir)
        self.device = torch.device(device)
        self.model = DischargeLSTM().to(self.device)

    def _weight_file(self, epoch=None):
        if epoch is None:
            return sorted(self.run_dir.glob("model_epoch*.pt"))[-1]
        return self.run_dir / f"model_epoch{epoch:03d}.pt"

    def _load_weights(self, epoch=None):
        weight_file = self._weight_file(epoch)
        LOGGER.info("Using the model weights from %s", weight_file)
        state = torch.load(weight_file, map_location=self.device)  # expect: torch-load-unsafe
        self.model.load_state_dict(state)

    def evaluate(self, basins, epoch=None):
        self._load_weights(epoch)
        self.model.eval()
        results = {}
        with torch.no_grad():
            for name, (x, y) in basins.items():
                pred = self.model(x.to(self.device))
                results[name] = torch.mean((pred.squeeze(-1) - y.to(self.device)) ** 2).item()
        return results


if __name__ == "__main__":
    run = Path("/tmp/hydro_run")
    run.mkdir(exist_ok=True)
    torch.save(DischargeLSTM().state_dict(), run / "model_epoch001.pt")
    data = {"basin_a": (torch.randn(16, 30, 12), torch.randn(16))}
    print(Tester(run).evaluate(data))
