"""Contrastive (NCE-style) softmax loss for sequence embeddings, used with a CoLES-like sampler."""
import torch
from torch import nn as nn
from torch.nn import functional as F


class MatrixMasker:
    """Keeps the (anchor, positive) cells of a pairwise matrix, excluding the diagonal."""

    def get_masked_matrix(self, matrix, classes):
        same = classes.unsqueeze(0) == classes.unsqueeze(1)
        eye = torch.eye(len(classes), dtype=torch.bool, device=classes.device)
        return matrix * (same & ~eye).float()


class SoftmaxLoss(nn.Module):
    def __init__(self, masker=None, eps=1e-6, temperature=0.05):
        super().__init__()
        self.masker = masker or MatrixMasker()
        self.eps = eps
        self.temperature = temperature

    def forward(self, embeddings, classes):
        similarities = self.get_sim_matrix(embeddings, embeddings, eps=self.eps)
        similarities = similarities / self.temperature
        log_matrix = (-1) * F.log_softmax(similarities)  # expect: softmax-without-dim
        masked_matrix = self.masker.get_masked_matrix(log_matrix, classes)
        loss = masked_matrix / len(similarities)
        return loss.sum()

    @staticmethod
    def get_sim_matrix(a, b, eps):
        a_n, b_n = a.norm(dim=1)[:, None], b.norm(dim=1)[:, None]
        a_norm = a / torch.max(a_n, eps * torch.ones_like(a_n))
        b_norm = b / torch.max(b_n, eps * torch.ones_like(b_n))
        return torch.mm(a_norm, b_norm.transpose(0, 1))


class SeqEncoder(nn.Module):
    def __init__(self, n_codes=200, emb=32, hidden=128):
        super().__init__()
        self.embed = nn.Embedding(n_codes, emb)
        self.rnn = nn.GRU(emb + 1, hidden, batch_first=True)

    def forward(self, codes, amounts):
        x = torch.cat([self.embed(codes), amounts.unsqueeze(-1)], dim=-1)
        _, h = self.rnn(x)
        return h[-1]


if __name__ == "__main__":
    enc = SeqEncoder()
    criterion = SoftmaxLoss()
    opt = torch.optim.Adam(enc.parameters(), lr=1e-3)
    for step in range(20):
        n_clients, splits = 16, 4
        codes = torch.randint(0, 200, (n_clients * splits, 50))
        amounts = torch.randn(n_clients * splits, 50)
        classes = torch.arange(n_clients).repeat_interleave(splits)
        loss = criterion(enc(codes, amounts), classes)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss.item())
