import torch
import torch.nn as nn
from tqdm import tqdm


class Trainer:
    def __init__(self, netG, train_ds, val_ds, config):
        self.netG = netG
        self.train_ds = train_ds
        self.val_ds = val_ds
        self.config = config
        self.criterion = nn.L1Loss()
        self.optimizer = torch.optim.Adam(netG.parameters(), lr=config["lr"])

    def _run_epoch(self, epoch):
        self.netG.train()
        for blurred, sharp in tqdm(self.train_ds, desc=f"epoch {epoch}"):
            blurred, sharp = blurred.cuda(), sharp.cuda()
            self.optimizer.zero_grad()
            restored = self.netG(blurred)
            loss = self.criterion(restored, sharp)
            loss.backward()
            self.optimizer.step()

    def _validate(self, epoch):
        self.netG.eval()
        psnrs = []
        for blurred, sharp in self.val_ds:
            blurred, sharp = blurred.cuda(), sharp.cuda()
            restored = self.netG(blurred)  # expect: validation-in-train-mode
            mse = torch.mean((restored.clamp(0, 1) - sharp) ** 2).item()
            psnrs.append(10 * torch.log10(torch.tensor(1.0 / max(mse, 1e-10))).item())
        self.netG.train()
        print(f"val epoch {epoch}: psnr {sum(psnrs) / len(psnrs):.2f}")

    def train(self):
        for epoch in range(self.config["num_epochs"]):
            self._run_epoch(epoch)
            self._validate(epoch)
