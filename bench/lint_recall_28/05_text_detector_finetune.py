"""Scene-text detector: load detector and recognizer weights, then fine-tune the recognizer with CTC."""
from collections import OrderedDict

import torch
import torch.nn as nn


def copy_state_dict(state_dict):
    start = 1 if list(state_dict.keys())[0].startswith("module") else 0
    new_state = OrderedDict()
    for k, v in state_dict.items():
        new_state[".".join(k.split(".")[start:])] = v
    return new_state


class TinyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 2, 1))

    def forward(self, x):
        return self.body(x)


class Recognizer(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 25)))
        self.rnn = nn.LSTM(32, 64, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(128, n_classes)

    def forward(self, x):
        f = self.cnn(x).squeeze(2).permute(0, 2, 1)
        out, _ = self.rnn(f)
        return self.fc(out)


def get_detector(trained_model, device="cpu"):
    net = TinyDetector()
    net.load_state_dict(copy_state_dict(torch.load(trained_model, map_location=device)))  # expect: torch-load-unsafe
    net.eval()
    return net


def get_recognizer(model_path, n_classes, device="cpu"):
    model = Recognizer(n_classes)
    model.load_state_dict(torch.load(model_path, map_location=device))  # expect: torch-load-unsafe
    return model.to(device)


def finetune_recognizer(model, batches, n_classes):
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model.train()
    for images, targets, target_lengths in batches:
        optimizer.zero_grad()
        log_probs = model(images).log_softmax(2).permute(1, 0, 2)
        input_lengths = torch.full((images.size(0),), log_probs.size(0), dtype=torch.long)
        loss = ctc(log_probs, targets, input_lengths, target_lengths)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()


if __name__ == "__main__":
    torch.save(TinyDetector().state_dict(), "craft.pth")
    torch.save(Recognizer(37).state_dict(), "rec.pth")
    det = get_detector("craft.pth")
    rec = get_recognizer("rec.pth", 37)
    data = [(torch.randn(2, 1, 32, 100), torch.randint(1, 37, (2, 6)), torch.tensor([6, 6]))]
    finetune_recognizer(rec, data, 37)
