"""University chatbot question classifier whose training script shuffles the questions but not their answer categories.

Source: https://github.com/DrexelChatbotGroup/DrexelChatbot/issues/15 (Incomplete randomization)
Report: "gac_training_tests.py randomizes the order of the x data, but not the y data. This
invalidates the required association between them." (fixed by the team). Reproduced with the
script's shape: questions turned into bag-of-words vectors, the arrays randomised in place
before training (np.random.shuffle on x only), a feed-forward classifier over 12 answer
categories trained with hand-sliced mini-batches and Adam, then checked on a separately
written, correctly labelled test set; synthetic questions (category keywords among filler
words); `acc` is the test accuracy.

expect: label-misaligned
symptom: acc-below 0.4
batch: 5
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
np.random.seed(args.seed)
torch.manual_seed(args.seed)
torch.set_num_threads(1)

VOCAB, N_CAT = 800, 12
keywords = np.random.choice(np.arange(100, VOCAB), (N_CAT, 8), replace=False)


def questions(n):
    cats = np.random.randint(0, N_CAT, n)
    bows = np.zeros((n, VOCAB), dtype=np.float32)
    for i, c in enumerate(cats):
        words = list(np.random.randint(0, 100, np.random.randint(3, 8)))   # filler words
        words += list(np.random.choice(keywords[c], np.random.randint(1, 3)))
        bows[i, words] = 1.0
    return bows, cats


x, y = questions(3000)
x_test, y_test = questions(600)

# randomise the training data
np.random.shuffle(x)

model = nn.Sequential(nn.Linear(VOCAB, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, N_CAT))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
xt, yt = torch.from_numpy(x), torch.from_numpy(y).long()
losses = []
for epoch in range(15):
    model.train()
    for i in range(0, len(xt), 32):
        loss = F.cross_entropy(model(xt[i:i + 32]), yt[i:i + 32])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-94:]) / 94:.4f}")

model.eval()
with torch.no_grad():
    acc = (model(torch.from_numpy(x_test)).argmax(1).numpy() == y_test).mean()
print(f"final_loss={sum(losses[-94:]) / 94:.6g} acc={acc:.4f}")
