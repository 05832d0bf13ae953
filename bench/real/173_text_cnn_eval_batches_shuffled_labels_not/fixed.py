"""Kim-style sentence-classification CNN -- fixed as the issue asks: the test set is iterated in order,
`batch_iter(list(x_test), batch_size, 1, shuffle=False)`, so predictions line up with `y_test`
(nothing else changed).
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
np.random.seed(args.seed)
torch.set_num_threads(1)

VOCAB, SEQ_LEN = 2000, 40
POS = torch.arange(10, 70)
NEG = torch.arange(70, 130)


def make_reviews(n):
    lengths = torch.randint(12, SEQ_LEN + 1, (n,))
    x = torch.zeros(n, SEQ_LEN, dtype=torch.long)
    y = torch.zeros(n, dtype=torch.long)
    for i in range(n):
        L = int(lengths[i])
        words = torch.randint(130, VOCAB, (L,))
        n_major, n_minor = int(torch.randint(2, 5, (1,))), int(torch.randint(0, 2, (1,)))
        n_pos, n_neg = (n_major, n_minor) if torch.rand(1) < 0.5 else (n_minor, n_major)
        slots = torch.randperm(L)[: n_pos + n_neg]
        words[slots[:n_pos]] = POS[torch.randint(0, len(POS), (n_pos,))]
        words[slots[n_pos:]] = NEG[torch.randint(0, len(NEG), (n_neg,))]
        x[i, :L] = words
        y[i] = int(n_pos > n_neg)
    flip = torch.rand(n) < 0.05
    y[flip] = 1 - y[flip]
    return x.numpy(), np.eye(2, dtype=np.float32)[y.numpy()]


def batch_iter(data, batch_size, num_epochs, shuffle=True):
    """Generates a batch iterator for a dataset (as in data_helpers.py)."""
    data = list(data)
    data_size = len(data)
    num_batches_per_epoch = int((len(data) - 1) / batch_size) + 1
    for epoch in range(num_epochs):
        if shuffle:
            shuffle_indices = np.random.permutation(np.arange(data_size))
            shuffled_data = [data[i] for i in shuffle_indices]
        else:
            shuffled_data = data
        for batch_num in range(num_batches_per_epoch):
            start_index = batch_num * batch_size
            end_index = min((batch_num + 1) * batch_size, data_size)
            yield shuffled_data[start_index:end_index]


class TextCNN(nn.Module):
    def __init__(self, vocab_size, embedding_size=64, filter_sizes=(3, 4, 5), num_filters=32, num_classes=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_size, padding_idx=0)
        self.convs = nn.ModuleList(nn.Conv1d(embedding_size, num_filters, k) for k in filter_sizes)
        self.dropout = nn.Dropout(0.5)
        self.fc = nn.Linear(num_filters * len(filter_sizes), num_classes)

    def forward(self, x):
        h = self.embedding(x).transpose(1, 2)
        pooled = [F.relu(conv(h)).max(dim=2).values for conv in self.convs]
        return self.fc(self.dropout(torch.cat(pooled, 1)))


x_train, y_train = make_reviews(6000)
x_test, y_test = make_reviews(1000)

model = TextCNN(VOCAB)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
batch_size, num_epochs = 64, 5
batches_per_epoch = int((len(x_train) - 1) / batch_size) + 1

model.train()
losses = []
batches = batch_iter(list(zip(x_train, y_train)), batch_size, num_epochs)
for step, batch in enumerate(batches):
    x_batch = torch.as_tensor(np.stack([b[0] for b in batch]))
    y_batch = torch.as_tensor(np.stack([b[1] for b in batch])).argmax(1)
    loss = F.cross_entropy(model(x_batch), y_batch)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    if (step + 1) % batches_per_epoch == 0:
        print(f"epoch {(step + 1) // batches_per_epoch} loss {np.mean(losses[-batches_per_epoch:]):.4f}")

# eval.py
model.eval()
y_test_labels = np.argmax(y_test, axis=1)
all_predictions = []
with torch.no_grad():
    for x_test_batch in batch_iter(list(x_test), batch_size, 1, shuffle=False):
        batch_predictions = model(torch.as_tensor(np.stack(x_test_batch))).argmax(1).numpy()
        all_predictions = np.concatenate([all_predictions, batch_predictions])
correct_predictions = float(sum(all_predictions == y_test_labels))
acc = correct_predictions / float(len(y_test_labels))
print(f"final_loss={np.mean(losses[-batches_per_epoch:]):.6g} acc={acc:.4f}")
