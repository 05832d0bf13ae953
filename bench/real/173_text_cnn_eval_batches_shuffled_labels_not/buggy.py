"""Kim-style sentence-classification CNN (embedding, parallel 3/4/5-gram convolutions, max-over-time pooling, dropout, softmax) whose evaluation feeds the test sentences through the same `batch_iter` helper as training -- which shuffles them -- and then compares the predictions with `y_test` in its original order: the network itself trains fine, but the predictions no longer line up with their labels and the reported test accuracy sits at chance.

Source: https://github.com/dennybritz/cnn-text-classification-tf/issues/136 (Is there a problem in the test case?)
Report: "In the test case, the test data has the operation, shuffle_indices =
np.random.permutation(np.arange(data_size)); shuffled_data = data[shuffle_indices] but the label
y_test has not the corresponding operation, correct_predictions = float(sum(all_predictions ==
y_test)) resulting in the calculated accuracy is not correct." The fix is to iterate over the test
set without shuffling (`shuffle=False`). Reproduced with the repo's structure in PyTorch: a
`batch_iter(data, batch_size, num_epochs, shuffle=True)` generator used for training and for
evaluation, a TextCNN (embedding 64, 32 filters each of widths 3/4/5, dropout 0.5), Adam lr 1e-3,
on 6,000 synthetic movie-review-like sentences (a 2,000-word vocabulary with 60 positive and 60
negative cue words; each review carries 2-4 cues of its sentiment and at most one of the other, 5% label noise), 1,000 more held out.
The printed loss is the mean training loss of the last epoch (of 5), `acc` the test accuracy as
eval.py computes it.

expect: label-misaligned
symptom: acc-below 0.7
batch: 10
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
    for x_test_batch in batch_iter(list(x_test), batch_size, 1):
        batch_predictions = model(torch.as_tensor(np.stack(x_test_batch))).argmax(1).numpy()
        all_predictions = np.concatenate([all_predictions, batch_predictions])
correct_predictions = float(sum(all_predictions == y_test_labels))
acc = correct_predictions / float(len(y_test_labels))
print(f"final_loss={np.mean(losses[-batches_per_epoch:]):.6g} acc={acc:.4f}")
