"""Lightning with manual optimization (a GAN-style or multi-optimizer module): the module
calls manual_backward and opt.step() itself; row 300 holds NaN."""
import torch, lightning as L
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
X = torch.randn(512, 8); Y = X[:, :1] * 2
X[300, 3] = float("nan")

class M(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False
        self.net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    def training_step(self, batch, i):
        opt = self.optimizers()
        x, y = batch
        loss = nn.functional.mse_loss(self.net(x), y)
        opt.zero_grad()
        self.manual_backward(loss)
        opt.step()
        self.log("train_loss", loss)
    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.01)

dl = DataLoader(TensorDataset(X, Y), batch_size=32, shuffle=True, generator=torch.Generator().manual_seed(0))
L.Trainer(max_epochs=2, enable_progress_bar=False, logger=False, enable_checkpointing=False,
          enable_model_summary=False, accelerator="cpu", devices=1).fit(M(), dl)
print("done")
