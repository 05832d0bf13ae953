"""Seq2slate-style ranker: per-symbol log-probabilities of the chosen items."""
import torch
from torch import nn

PADDING_SYMBOL = 0


class PointerDecoder(nn.Module):
    """Returns, for each decoding step, a probability distribution over candidates."""

    def __init__(self, dim, n_candidates):
        super().__init__()
        self.query = nn.GRUCell(dim, dim)
        self.key = nn.Linear(dim, dim)
        self.n_candidates = n_candidates

    def forward(self, cand_embs, steps):
        batch, _, dim = cand_embs.shape
        h = cand_embs.mean(dim=1)
        keys = self.key(cand_embs)
        chosen = torch.zeros(batch, self.n_candidates, dtype=torch.bool, device=cand_embs.device)
        out = []
        for _ in range(steps):
            h = self.query(h, h)
            scores = torch.einsum("bd,bnd->bn", h, keys)
            scores = scores.masked_fill(chosen, -1e9)
            probs = scores.softmax(dim=-1)
            out.append(probs)
            chosen = chosen | nn.functional.one_hot(probs.argmax(-1), self.n_candidates).bool()
        return torch.stack(out, dim=1)


class SlateRanker(nn.Module):
    def __init__(self, n_features, dim=64, n_candidates=10):
        super().__init__()
        self.encoder = nn.Linear(n_features, dim)
        self.decoder = PointerDecoder(dim, n_candidates)

    def per_symbol_log_probs(self, candidates, slate_len):
        decoder_probs = self.decoder(self.encoder(candidates), slate_len)
        return torch.log(decoder_probs)  # expect: unguarded-zero


def reinforce_step(ranker, optimizer, candidates, chosen_idx, reward):
    log_probs = ranker.per_symbol_log_probs(candidates, chosen_idx.size(1))
    picked = log_probs.gather(2, chosen_idx.unsqueeze(2)).squeeze(2).sum(dim=1)
    loss = -(reward * picked).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
