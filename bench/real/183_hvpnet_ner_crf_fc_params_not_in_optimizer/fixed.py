"""HVPNeT-style NER tagger -- fixed as the maintainer says: `parameters.append(params)` after the crf /
fc group, so the emission layer and the CRF are trained (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "B-MISC", "I-MISC"]
VOCAB, MAX_LEN, DIM = 1200, 20, 64
ENT_RANGES = {"PER": (800, 900), "LOC": (900, 1000), "ORG": (1000, 1100), "MISC": (1100, 1200)}


def make_sentences(n):
    ids = torch.zeros(n, MAX_LEN, dtype=torch.long)
    tags = torch.zeros(n, MAX_LEN, dtype=torch.long)
    lengths = torch.randint(8, MAX_LEN + 1, (n,))
    for s in range(n):
        L = int(lengths[s])
        ids[s, :L] = torch.randint(1, 800, (L,))
        for _ in range(int(torch.randint(1, 3, (1,)))):
            kind = list(ENT_RANGES)[int(torch.randint(0, 4, (1,)))]
            span = int(torch.randint(1, 4, (1,)))
            start = int(torch.randint(0, L - span + 1, (1,)))
            lo, hi = ENT_RANGES[kind]
            ids[s, start:start + span] = torch.randint(lo, hi, (span,))
            tags[s, start] = TAGS.index("B-" + kind)
            tags[s, start + 1:start + span] = TAGS.index("I-" + kind)
    mask = torch.arange(MAX_LEN)[None] < lengths[:, None]
    return ids, tags, mask


class CRF(nn.Module):
    def __init__(self, num_tags):
        super().__init__()
        self.start_transitions = nn.Parameter(torch.empty(num_tags).uniform_(-0.1, 0.1))
        self.end_transitions = nn.Parameter(torch.empty(num_tags).uniform_(-0.1, 0.1))
        self.transitions = nn.Parameter(torch.empty(num_tags, num_tags).uniform_(-0.1, 0.1))

    def forward(self, emissions, tags, mask):  # negative log-likelihood, summed over the batch
        B, T, K = emissions.shape
        score = self.start_transitions[tags[:, 0]] + emissions[:, 0].gather(1, tags[:, :1]).squeeze(1)
        alpha = self.start_transitions + emissions[:, 0]
        for t in range(1, T):
            m = mask[:, t]
            step = self.transitions[tags[:, t - 1], tags[:, t]] + emissions[:, t].gather(1, tags[:, t:t + 1]).squeeze(1)
            score = score + step * m
            nxt = torch.logsumexp(alpha.unsqueeze(2) + self.transitions + emissions[:, t].unsqueeze(1), dim=1)
            alpha = torch.where(m.unsqueeze(1), nxt, alpha)
        last = tags.gather(1, (mask.sum(1) - 1).unsqueeze(1)).squeeze(1)
        score = score + self.end_transitions[last]
        log_z = torch.logsumexp(alpha + self.end_transitions, dim=1)
        return (log_z - score).sum()

    def decode(self, emissions, mask):
        B, T, K = emissions.shape
        score, history = self.start_transitions + emissions[:, 0], []
        for t in range(1, T):
            nxt, idx = (score.unsqueeze(2) + self.transitions + emissions[:, t].unsqueeze(1)).max(dim=1)
            score = torch.where(mask[:, t].unsqueeze(1), nxt, score)
            history.append(torch.where(mask[:, t].unsqueeze(1), idx, torch.arange(K).expand(B, K)))
        best = (score + self.end_transitions).argmax(1)
        path = [best]
        for idx in reversed(history):
            best = idx.gather(1, best.unsqueeze(1)).squeeze(1)
            path.append(best)
        return torch.stack(path[::-1], 1)


class HMNeTNERModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder_embeddings = nn.Embedding(VOCAB, DIM)
        with torch.no_grad():  # "pretrained": words of one entity class share a direction
            for k, (lo, hi) in enumerate(ENT_RANGES.values()):
                self.encoder_embeddings.weight[lo:hi] += 1.5 * torch.randn(DIM)
        self.encoder_lstm = nn.LSTM(DIM, DIM // 2, batch_first=True, bidirectional=True)
        self.prefix_fusion = nn.Sequential(nn.Linear(DIM, DIM), nn.Tanh())
        self.dropout = nn.Dropout(0.1)
        self.fc = nn.Linear(DIM, len(TAGS))
        self.crf = CRF(len(TAGS))

    def emissions(self, ids):
        h = self.encoder_lstm(self.encoder_embeddings(ids))[0]
        return self.fc(self.dropout(h + self.prefix_fusion(h)))

    def forward(self, ids, tags, mask):
        return self.crf(self.emissions(ids), tags, mask)


train_ids, train_tags, train_mask = make_sentences(2000)
test_ids, test_tags, test_mask = make_sentences(400)
loader = DataLoader(TensorDataset(train_ids, train_tags, train_mask), batch_size=16, shuffle=True)
model = HMNeTNERModel()

# optimizer construction as in modules/train.py
lr = 3e-5
parameters = []
params = {"lr": lr, "weight_decay": 1e-2}
params["params"] = [p for name, p in model.named_parameters() if "encoder" in name]
parameters.append(params)
params = {"lr": lr, "weight_decay": 1e-2}
params["params"] = [p for name, p in model.named_parameters() if "prefix" in name]
parameters.append(params)
params = {"lr": 5e-2, "weight_decay": 1e-2}
params["params"] = [p for name, p in model.named_parameters() if "crf" in name or name.startswith("fc")]
parameters.append(params)
optimizer = torch.optim.AdamW(parameters, lr=lr)

for epoch in range(4):
    model.train()
    total, count = 0.0, 0
    for ids, tags, mask in loader:
        loss = model(ids, tags, mask) / ids.shape[0]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} crf nll {total / count:.4f}")

model.eval()
with torch.no_grad():
    pred = model.crf.decode(model.emissions(test_ids), test_mask)
    acc = (pred[test_mask] == test_tags[test_mask]).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
