"""Natural-language question to query-template classifier (the first stage of a text-to-SPARQL pipeline: a bag-of-embeddings encoder over the question tokens predicts which of 8 query templates answers it). The generated corpus repeats most questions many times -- the generator kept re-emitting the same instantiated question -- and the script shuffles the lines and cuts 80/20 into train and test without removing repeats, so nearly every test question also sits, verbatim and with the same template, in the training split. The test loss measures recall of memorised lines, not generalisation to new questions, and comes out far better than the model deserves.

Source: https://github.com/LiberAI/NSpM/issues/9 (Duplicates in movies dataset)
Report: "it has many duplicate lines in the training file (e.g. "how long is the longest movie"
showed 227 times in 'train.en')" (maintainer: "that should not have happened. All lines in dev and
test appearing also in train should have been removed"). Reproduced with 1,500 synthetic unique
questions (a template cue word, one entity token, four filler words; for 40 % of them the cue is
generic and the template follows from what the entity is), each emitted 1 + Poisson(5) times, lines
shuffled and split 80/20; EmbeddingBag(1568, 48) -> MLP 48-128-8, Adam lr 1e-3, DataLoader batches
of 128 for 5 epochs. The printed loss is the cross-entropy on the test lines, `acc` the test
accuracy.

expect: data-leakage
symptom: loss-below 0.55
batch: 19
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

order = torch.randperm(len(lines))
cut = int(0.8 * len(lines))
train_idx, test_idx = order[:cut], order[cut:]
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
