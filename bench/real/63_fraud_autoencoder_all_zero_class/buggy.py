"""Fraud classifier on autoencoder-compressed transaction features predicts every record as
non-fraudulent.

Source: https://stackoom.com/en/question/4QOjQ ("All zero class" prediction by Neural Network)
Report: "In a classification problem involving the identification of fraudulent transactions, I
reduced the dimensionality of the data (28 columns) using a stacked auto encoder (28->15->5) and
fed the compressed data (5 columns) into a neural network with two hidden layers, each having 10
nodes and 'relu' activation function. I trained the model over a 100 epochs (The AUC metric
didn't go beyond 0.500 and the train loss became constant after a few epochs). The model
predicted all the records of the test set as non-fraudulent (0 class) ... Confusion matrix:
[[70999 0] [115 0]]". Answer: "Since your accuracy is over 99% on all zero class prediction, the
percent of fraud cases in your train set is less than 1% ... to fix this you can add costs to
penalize the majority class, or add weights ... or use class balancing methods". Reproduced with
28 PCA-like features (0.3 % fraud, fraud shifted along the leading components), the same
28->15->5 autoencoder and 5->10->10->1 classifier; `acc` is the balanced accuracy (mean recall).

expect: class-imbalance
symptom: acc-below 0.6
batch: 3
"""
import argparse

import numpy as np
import torch
import torch.nn as nn


def make_transactions(n, rng):
    scales = np.linspace(3.0, 0.4, 28)
    X = rng.randn(n, 28) * scales
    y = (rng.rand(n) < 0.003).astype(np.float32)
    X[y == 1, :4] += np.array([-4.0, 3.5, -3.0, 2.5])  # fraud lies off the bulk along V1-V4
    return X.astype(np.float32), y


def build_autoencoder():
    encoder = nn.Sequential(nn.Linear(28, 15), nn.Tanh(), nn.Linear(15, 5))
    decoder = nn.Sequential(nn.Linear(5, 15), nn.Tanh(), nn.Linear(15, 28))
    return encoder, decoder


def build_classifier():
    return nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 10), nn.ReLU(), nn.Linear(10, 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.RandomState(args.seed)
    Xtr, ytr = make_transactions(30000, rng)
    Xte, yte = make_transactions(10000, rng)
    Xtr, ytr, Xte, yte = map(torch.tensor, (Xtr, ytr, Xte, yte))

    # 1) stacked autoencoder 28 -> 15 -> 5
    encoder, decoder = build_autoencoder()
    ae_opt = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=3e-3)
    for epoch in range(3):
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 1000):
            xb = Xtr[perm[i:i + 1000]]
            rec = nn.functional.mse_loss(decoder(encoder(xb)), xb)
            ae_opt.zero_grad()
            rec.backward()
            ae_opt.step()
        print(f"autoencoder epoch {epoch} reconstruction mse {rec.item():.4f}")
    with torch.no_grad():
        Ztr, Zte = encoder(Xtr), encoder(Xte)

    # 2) classifier on the 5 compressed columns
    clf = build_classifier()
    criterion = nn.BCEWithLogitsLoss()
    opt = torch.optim.Adam(clf.parameters(), lr=1e-3)
    losses = []
    for epoch in range(10):
        perm = torch.randperm(len(Ztr))
        for i in range(0, len(perm), 1000):
            idx = perm[i:i + 1000]
            loss = criterion(clf(Ztr[idx]).squeeze(1), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        print(f"epoch {epoch} loss {np.mean(losses[-30:]):.5f}")

    with torch.no_grad():
        pred = (torch.sigmoid(clf(Zte).squeeze(1)) > 0.5).float()
    tn = ((pred == 0) & (yte == 0)).sum().item(); fp = ((pred == 1) & (yte == 0)).sum().item()
    fn = ((pred == 0) & (yte == 1)).sum().item(); tp = ((pred == 1) & (yte == 1)).sum().item()
    print(f"confusion matrix: [[{tn} {fp}] [{fn} {tp}]]  accuracy {(tn + tp) / len(yte):.4f}")
    bal = 0.5 * (tn / max(tn + fp, 1) + tp / max(tp + fn, 1))
    print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={bal:.4f}")


if __name__ == "__main__":
    main()
