# Source: https://github.com/bowang-lab/Transformer-GCN-QA/pull/22
# Pitfall: Candidate scores go through a hand-rolled softmax and the loss then takes .log() of the probabilities; a candidate whose probability underflows to 0 gives -inf and the loss becomes NaN (fixed by switching to LogSoftmax).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class CandidateScorer(nn.Module):
    def __init__(self, hidden=512):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, node_states):
        h = torch.tanh(self.proj(node_states))
        return self.out(h).squeeze(-1)


def answer_loss(scorer, node_states, answer_idx):
    scores = scorer(node_states)
    probs = scores.softmax(dim=-1)
    log_probs = probs.log()  # expect: log-of-softmax
    picked = log_probs.gather(1, answer_idx.unsqueeze(1))
    return -picked.mean()


def train_epoch(scorer, batches, optimizer):
    scorer.train()
    total = 0.0
    for node_states, answer_idx in batches:
        optimizer.zero_grad()
        loss = answer_loss(scorer, node_states, answer_idx)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total
