# Source: https://github.com/karpathy/minGPT/commit/339f4e7ad39558bfd7e99d916b9fdd6c6827f807
# Pitfall: the trainer's epoch loop builds its DataLoader with no shuffle and no sampler, so the
#   character chunks always arrive in the same order; the fix makes shuffle=True the default.
# Reproduced in our own words, not the original code.
import math
import torch
from torch.nn import functional as F
from torch.utils.data import DataLoader


class CharTrainer:
    def __init__(self, model, train_set, test_set, lr=3e-4, batch_size=64, epochs=2, workers=4):
        self.model = model
        self.train_set = train_set
        self.test_set = test_set
        self.batch_size = batch_size
        self.epochs = epochs
        self.workers = workers
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.model.to(self.device)
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=lr, betas=(0.9, 0.95))

    def _train_epoch(self, epoch):
        self.model.train()
        loader = DataLoader(self.train_set, batch_size=self.batch_size, num_workers=self.workers)  # expect: train-loader-not-shuffled
        for it, (idx, targets) in enumerate(loader):
            idx, targets = idx.to(self.device), targets.to(self.device)
            logits = self.model(idx)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
            self.opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.opt.step()
            if it % 100 == 0:
                print(f"epoch {epoch} iter {it} loss {loss.item():.4f}")

    @torch.no_grad()
    def _test_epoch(self):
        self.model.eval()
        loader = DataLoader(self.test_set, batch_size=self.batch_size, num_workers=self.workers)
        losses = []
        for idx, targets in loader:
            idx, targets = idx.to(self.device), targets.to(self.device)
            logits = self.model(idx)
            losses.append(F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1)).item())
        self.model.train()
        return sum(losses) / max(len(losses), 1)

    def fit(self):
        for epoch in range(self.epochs):
            self._train_epoch(epoch)
            test_loss = self._test_epoch()
            print(f"epoch {epoch}: test loss {test_loss:.4f}, ppl {math.exp(test_loss):.2f}")
