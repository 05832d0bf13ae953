# Source: https://github.com/pytorch/pytorch/issues/2769
# Pitfall: the module keeps the LSTM state on self and feeds it back into the next forward call without
#   detaching it, so each batch's graph is chained to all earlier ones: step time and memory keep growing.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrameFeatureLSTM(nn.Module):
    def __init__(self, feat_dim=1024, hidden=512, n_classes=101, batch_size=16):
        super().__init__()
        self.hidden = hidden
        self.lstm = nn.LSTM(feat_dim, hidden, batch_first=True)
        self.classifier = nn.Linear(hidden, n_classes)
        self.state = self.zero_state(batch_size)

    def zero_state(self, batch_size):
        return (torch.zeros(1, batch_size, self.hidden), torch.zeros(1, batch_size, self.hidden))

    def forward(self, frames):
        out, self.state = self.lstm(frames, self.state)  # expect: hidden-state-not-detached
        return self.classifier(out[:, -1])


def train_one_epoch(model, loader, optimizer, epoch):
    model.train()
    seen, correct, running = 0, 0, 0.0
    for step, (frames, label) in enumerate(loader):
        logits = model(frames)
        loss = F.cross_entropy(logits, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item() * label.size(0)
        correct += (logits.argmax(1) == label).sum().item()
        seen += label.size(0)
        if step % 20 == 0:
            print(f"epoch {epoch} step {step}: loss {running / seen:.4f} acc {correct / seen:.3f}")
    return running / max(seen, 1)


if __name__ == "__main__":
    from torch.utils.data import DataLoader, TensorDataset
    feats = torch.randn(640, 12, 1024)
    labels = torch.randint(0, 101, (640,))
    loader = DataLoader(TensorDataset(feats, labels), batch_size=16, shuffle=True, drop_last=True)
    net = FrameFeatureLSTM()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    for ep in range(3):
        train_one_epoch(net, loader, opt, ep)
