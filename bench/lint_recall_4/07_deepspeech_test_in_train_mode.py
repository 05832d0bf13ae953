# Source: https://github.com/SeanNaren/deepspeech.pytorch/pull/22
# Pitfall: the per-epoch test loop decodes the validation set while the acoustic model is still
#   in training mode, so dropout and batch-norm batch statistics distort the reported WER.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class SpeechNet(nn.Module):
    def __init__(self, n_feats=161, hidden=512, n_tokens=29):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 32, (41, 11), stride=(2, 2), padding=(20, 5)),
            nn.BatchNorm2d(32), nn.Hardtanh(0, 20, inplace=True),
        )
        self.rnn = nn.GRU(32 * ((n_feats + 1) // 2), hidden, num_layers=3, batch_first=True,
                          bidirectional=True, dropout=0.3)
        self.out = nn.Linear(2 * hidden, n_tokens)

    def forward(self, spect):
        x = self.conv(spect.unsqueeze(1))
        b, c, f, t = x.shape
        x = x.permute(0, 3, 1, 2).reshape(b, t, c * f)
        x, _ = self.rnn(x)
        return self.out(x).log_softmax(dim=-1)


def greedy_decode(log_probs, blank=0):
    best = log_probs.argmax(dim=-1)
    hyps = []
    for seq in best:
        collapsed = torch.unique_consecutive(seq)
        hyps.append(collapsed[collapsed != blank].tolist())
    return hyps


def train(model, train_loader, test_loader, epochs, device):
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=3e-4, momentum=0.9, nesterov=True)
    for epoch in range(epochs):
        model.train()
        for spect, targets, in_lens, tgt_lens in train_loader:
            spect = spect.to(device)
            optimizer.zero_grad()
            log_probs = model(spect).transpose(0, 1)
            loss = ctc(log_probs, targets, in_lens, tgt_lens)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 400)
            optimizer.step()

        hyps_total = 0
        with torch.no_grad():
            for spect, targets, in_lens, tgt_lens in test_loader:
                out = model(spect.to(device))  # expect: validation-in-train-mode
                hyps_total += len(greedy_decode(out.cpu()))
        print(f"epoch {epoch}: decoded {hyps_total} test utterances")
