# Source: https://github.com/gitabcworld/MatchingNetworks/issues/5
# Pitfall: the attentional classifier returns softmax-normalised similarities, and the training
#   step feeds them to F.cross_entropy, which applies log_softmax again: gradients are flattened.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SupportAttention(nn.Module):
    """Scores each query against the labelled support set."""

    def __init__(self):
        super().__init__()
        self.normalize = nn.Softmax(dim=1)

    def forward(self, sims, support_onehot):
        weights = self.normalize(sims)                 # (Q, S)
        return torch.bmm(weights.unsqueeze(1), support_onehot).squeeze(1)  # (Q, C)


class EpisodeLearner(nn.Module):
    def __init__(self, in_dim, emb_dim):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(in_dim, emb_dim), nn.ReLU(), nn.Linear(emb_dim, emb_dim))
        self.attend = SupportAttention()

    def forward(self, support_x, support_onehot, query_x):
        s = F.normalize(self.embed(support_x), dim=-1)
        q = F.normalize(self.embed(query_x), dim=-1)
        sims = q @ s.t()
        onehot = support_onehot.unsqueeze(0).expand(q.size(0), -1, -1)
        return self.attend(sims, onehot)


def run_episode(learner, optimizer, episode):
    support_x, support_y, query_x, query_y, n_way = episode
    support_onehot = F.one_hot(support_y, n_way).float()
    optimizer.zero_grad()
    class_probs = learner(support_x, support_onehot, query_x)
    loss = F.cross_entropy(class_probs, query_y)  # expect: softmax-before-cross-entropy
    loss.backward()
    optimizer.step()
    acc = (class_probs.argmax(dim=1) == query_y).float().mean()
    return loss.item(), acc.item()


def main(episodes):
    learner = EpisodeLearner(in_dim=64, emb_dim=128)
    optimizer = torch.optim.Adam(learner.parameters(), lr=1e-3)
    for i, ep in enumerate(episodes):
        loss, acc = run_episode(learner, optimizer, ep)
        if i % 50 == 0:
            print(f"episode {i}: loss={loss:.3f} acc={acc:.3f}")
