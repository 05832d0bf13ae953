"""Next-bit predictor for a binary control sequence: an LSTM reads the previous 3 bits and a Dense layer with a single output unit gives the probability that the next bit is 1, trained with binary cross-entropy (Adagrad, batches of 256). The output unit is passed through a softmax over its one-element dimension, and a softmax over a single value is always exactly 1.0: the model predicts "1" for every window whatever the input, the gradient through the softmax is identically zero so no weight ever changes, and accuracy sits at the share of ones in the sequence.

Source: https://stackguides.com/questions/46620813/keras-lstm-model-not-learning-binary-sequence (Keras LSTM model not learning binary sequence)
Report: "I'd like to create an LSTM model to predict the next binary term based on the 3 previous numbers in the
sequence ... LSTM_net.add(LSTM(1,input_shape=(3,1))) LSTM_net.add(Dense(1,activation="softmax"))
LSTM_net.compile(optimizer="adagrad", loss="binary_crossentropy",metrics=["accuracy"]) ... it gets stuck with
constant accuracy during the whole training process ... The resulted trained model gives only constant ... predictions
for all the inputs". Reproduced with a 12,000-step synthetic control sequence whose next bit is a noisy function of
the previous three (XOR of two lags, 5% flips), LSTM(8) -> Linear(1) -> Softmax(dim=1), BCELoss, Adagrad lr 0.1,
batch 256, 10 epochs. The printed loss is the held-out BCE; `acc` is the held-out accuracy.

expect: loss-mismatch
symptom: acc-below 0.65
batch: 26
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def control_sequence(n):
    bits = torch.randint(0, 2, (n,)).float()
    for t in range(3, n):
        nxt = float(bits[t - 1] != bits[t - 3])
        bits[t] = 1 - nxt if torch.rand(()) < 0.05 else nxt
    return bits


def windows(bits):
    X = torch.stack([bits[t - 3:t] for t in range(3, len(bits))]).unsqueeze(2)
    return X, bits[3:]


class NextBit(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 8, batch_first=True)
        self.dense = nn.Linear(8, 1)
        self.act = nn.Softmax(dim=1)

    def forward(self, x):
        h, _ = self.lstm(x)
        return self.act(self.dense(h[:, -1])).squeeze(1)


X_tr, y_tr = windows(control_sequence(12000))
X_te, y_te = windows(control_sequence(3000))
model = NextBit()
opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
loss_fn = nn.BCELoss()
for epoch in range(10):
    for i in range(0, len(X_tr), 256):
        loss = loss_fn(model(X_tr[i:i + 256]), y_tr[i:i + 256])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        p = model(X_te)
    print(f"epoch {epoch} loss {loss.item():.4f} acc {((p > 0.5).float() == y_te).float().mean().item():.4f}")

with torch.no_grad():
    p = model(X_te)
    test_loss = loss_fn(p, y_te).item()
    acc = ((p > 0.5).float() == y_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
