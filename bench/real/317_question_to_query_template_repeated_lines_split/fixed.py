"""Natural-language question to query-template classifier (a bag-of-embeddings encoder over the question tokens predicts which of 8 query templates answers it), trained on a generated corpus in which most questions are repeated many times.

Fixed: the split is made over distinct questions (20 % of them held out with all their repeats),
so no test question also appears in the training lines.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

TEMPLATES, UNIQUE, FILLER = 8, 1500, 40
CUES = TEMPLATES * 3 + 4
VOCAB = CUES + FILLER + UNIQUE
entity_type = torch.randint(0, TEMPLATES, (UNIQUE,))
generic = torch.rand(UNIQUE) < 0.4
annotated = torch.where(generic, entity_type, torch.randint(0, TEMPLATES, (UNIQUE,)))
cue = torch.where(generic, TEMPLATES * 3 + torch.randint(0, 4, (UNIQUE,)),
                  annotated * 3 + torch.randint(0, 3, (UNIQUE,)))
questions = torch.cat([cue[:, None], (CUES + FILLER + torch.arange(UNIQUE))[:, None],
                       CUES + torch.randint(0, FILLER, (UNIQUE, 4))], 1)

repeats = 1 + torch.poisson(torch.full((UNIQUE,), 5.0)).long()
line_question = torch.repeat_interleave(torch.arange(UNIQUE), repeats)
lines, labels = questions[line_question], annotated[line_question]

held_out = torch.randperm(UNIQUE)[:int(0.2 * UNIQUE)]
is_test = torch.isin(line_question, held_out)
train_idx, test_idx = torch.nonzero(~is_test).squeeze(1), torch.nonzero(is_test).squeeze(1)
print(f"{len(lines)} lines from {UNIQUE} questions; train {len(train_idx)} test {len(test_idx)}")


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 48, mode="mean")
        nn.init.normal_(self.emb.weight, std=0.1)
        self.head = nn.Sequential(nn.Linear(48, 128), nn.ReLU(), nn.Linear(128, TEMPLATES))

    def forward(self, tokens):
        return self.head(self.emb(tokens))


model = BagClassifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(lines[train_idx], labels[train_idx]), batch_size=128, shuffle=True)
for epoch in range(5):
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    with torch.no_grad():
        logits = model(lines[test_idx])
        test_loss = F.cross_entropy(logits, labels[test_idx]).item()
        acc = (logits.argmax(1) == labels[test_idx]).float().mean().item()
    print(f"epoch {epoch} train {total / len(train_idx):.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
