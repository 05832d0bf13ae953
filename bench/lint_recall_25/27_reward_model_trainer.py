"""Pairwise reward-model trainer for RLHF (chosen vs rejected responses), evaluated each epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class RewardModel(nn.Module):
    def __init__(self, vocab=2000, dim=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, 256, dropout=0.1, batch_first=True)
        self.body = nn.TransformerEncoder(layer, 2)
        self.value_head = nn.Linear(dim, 1)

    def forward(self, ids):
        h = self.body(self.emb(ids))
        return self.value_head(h[:, -1]).squeeze(-1)


class LogSigLoss(nn.Module):
    def forward(self, chosen_reward, reject_reward):
        return -F.logsigmoid(chosen_reward - reject_reward).mean()


class RewardModelTrainer:
    def __init__(self, model, optim, train_dataloader, eval_dataloader, max_epochs=2):
        self.model = model
        self.optimizer = optim
        self.loss_fn = LogSigLoss()
        self.train_dataloader = train_dataloader
        self.eval_dataloader = eval_dataloader
        self.max_epochs = max_epochs

    def _eval(self, epoch):
        self.model.eval()
        num_correct, num_samples, dist = 0, 0, 0.0
        with torch.no_grad():
            for chosen_ids, reject_ids in self.eval_dataloader:
                chosen_reward = self.model(chosen_ids)
                reject_reward = self.model(reject_ids)
                num_samples += chosen_ids.size(0)
                num_correct += (chosen_reward > reject_reward).sum().item()
                dist += (chosen_reward - reject_reward).mean().item()
        self.acc = num_correct / max(num_samples, 1)
        self.dist = dist / max(len(self.eval_dataloader), 1)
        print(f"epoch {epoch}: eval acc {self.acc:.3f} dist {self.dist:.3f}")

    def _train(self, epoch):
        self.model.eval()  # expect: train-mode-not-restored
        for step, (chosen_ids, reject_ids) in enumerate(self.train_dataloader):
            chosen_reward = self.model(chosen_ids)
            reject_reward = self.model(reject_ids)
            loss = self.loss_fn(chosen_reward, reject_reward)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            if step % 20 == 0:
                print(f"epoch {epoch} step {step}: loss {loss.item():.4f}")

    def fit(self):
        for epoch in range(self.max_epochs):
            self._train(epoch)
            self._eval(epoch)


if __name__ == "__main__":
    chosen, rejected = torch.randint(0, 2000, (512, 48)), torch.randint(0, 2000, (512, 48))
    train_dl = DataLoader(TensorDataset(chosen[:448], rejected[:448]), batch_size=16, shuffle=True)
    eval_dl = DataLoader(TensorDataset(chosen[448:], rejected[448:]), batch_size=32)
    rm = RewardModel()
    RewardModelTrainer(rm, torch.optim.Adam(rm.parameters(), lr=5e-6), train_dl, eval_dl).fit()
