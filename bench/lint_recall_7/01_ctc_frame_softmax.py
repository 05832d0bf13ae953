# Source: https://github.com/githubharald/CTCWordBeamSearch/pull/19
# Pitfall: the helper that turns the recognizer's per-frame scores into character probabilities
#   exponentiates the raw scores directly; large scores overflow to inf and inf/inf gives NaN rows.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
import torch.nn as nn

ALPHABET = "abcdefghijklmnopqrstuvwxyz "
BLANK = len(ALPHABET)


class LineRecognizer(nn.Module):
    def __init__(self, n_feats=32, hidden=128):
        super().__init__()
        self.rnn = nn.GRU(n_feats, hidden, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * hidden, len(ALPHABET) + 1)

    def forward(self, feats):
        seq, _ = self.rnn(feats)
        return self.proj(seq)


def frame_probabilities(scores):
    """scores: (T, C) array of unnormalised character scores for one text line."""
    expd = np.exp(scores)  # expect: unshifted-softmax
    return expd / np.sum(expd, axis=1, keepdims=True)


def best_path(probs):
    best = np.argmax(probs, axis=1)
    out, prev = [], None
    for idx in best:
        if idx != prev and idx != BLANK:
            out.append(ALPHABET[idx])
        prev = idx
    return "".join(out)


def transcribe(model, feats, device):
    model.eval()
    with torch.no_grad():
        scores = model(feats.to(device))
    texts = []
    for line_scores in scores.cpu().numpy():
        texts.append(best_path(frame_probabilities(line_scores)))
    return texts


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    recognizer = LineRecognizer().to(device)
    lines = torch.randn(4, 100, 32)
    for text in transcribe(recognizer, lines, device):
        print(repr(text))
