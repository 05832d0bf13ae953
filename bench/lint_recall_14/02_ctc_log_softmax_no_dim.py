"""DeepSpeech-like acoustic model: per-utterance log-probabilities for CTC."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class InferenceLogSoftmax(nn.Module):
    """Applies log-softmax over the label axis only when not training (CTC loss does it itself)."""

    def forward(self, input_):
        if not self.training:
            batch_size = input_.size(0)
            return torch.stack([F.log_softmax(input_[i]) for i in range(batch_size)], 0)  # expect: softmax-without-dim
        return input_


class SpeechModel(nn.Module):
    def __init__(self, n_feats=161, hidden=768, n_labels=29):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 32, kernel_size=(41, 11), stride=(2, 2), padding=(20, 5)),
            nn.BatchNorm2d(32),
            nn.Hardtanh(0, 20, inplace=True),
        )
        rnn_in = 32 * ((n_feats + 1) // 2)
        self.rnn = nn.GRU(rnn_in, hidden, num_layers=3, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, n_labels)
        self.inference_softmax = InferenceLogSoftmax()

    def forward(self, spect):
        x = self.conv(spect.unsqueeze(1))
        b, c, f, t = x.size()
        x = x.view(b, c * f, t).transpose(1, 2)
        x, _ = self.rnn(x)
        x = self.fc(x)
        return self.inference_softmax(x)


@torch.no_grad()
def greedy_decode(model, spect, labels):
    model.eval()
    log_probs = model(spect)
    best = log_probs.argmax(dim=-1)
    out = []
    for seq in best:
        prev, chars = None, []
        for idx in seq.tolist():
            if idx != prev and idx != 0:
                chars.append(labels[idx])
            prev = idx
        out.append("".join(chars))
    return out
