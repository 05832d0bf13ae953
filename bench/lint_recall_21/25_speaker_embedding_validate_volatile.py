"""Validate a speaker-embedding network: equal error rate on same/different-speaker pairs."""
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable


class SpeakerEmbedder(nn.Module):
    def __init__(self, n_features=35, hidden=256, dim=128):
        super().__init__()
        self.rnn = nn.LSTM(n_features, hidden, num_layers=2, bidirectional=True)
        self.linear = nn.Linear(2 * hidden, dim)

    def forward(self, sequences):
        output, _ = self.rnn(sequences)
        emb = self.linear(output.mean(dim=0))
        return emb / emb.norm(dim=1, keepdim=True).clamp(min=1e-8)


def det_curve(y_true, scores):
    order = np.argsort(-scores)
    y = y_true[order]
    tp = np.cumsum(y)
    fp = np.cumsum(1 - y)
    fnr = 1 - tp / max(y.sum(), 1)
    fpr = fp / max((1 - y).sum(), 1)
    idx = np.argmin(np.abs(fnr - fpr))
    return (fnr[idx] + fpr[idx]) / 2


def validate_epoch(model, validation_data, gpu=False):
    model.eval()
    X = np.rollaxis(validation_data["X"], 0, 2)
    X = torch.from_numpy(np.array(X, dtype=np.float32))
    X = Variable(X, volatile=True)  # expect: volatile-variable
    if gpu:
        X = X.cuda()
    fX = model(X).data.cpu().numpy()
    y = validation_data["y"]
    i, j = np.triu_indices(len(y), k=1)
    scores = np.sum(fX[i] * fX[j], axis=1)
    same = (y[i] == y[j]).astype(np.int64)
    eer = det_curve(same, scores)
    model.train()
    return {"EER.turn": eer}


if __name__ == "__main__":
    net = SpeakerEmbedder()
    data = {"X": np.random.randn(40, 200, 35), "y": np.random.randint(0, 8, size=40)}
    print(validate_epoch(net, data))
