"""Temporal convolutional network on the copy-memory task."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import weight_norm


class TemporalBlock(nn.Module):
    def __init__(self, n_in, n_out, kernel_size, dilation, dropout=0.05):
        super().__init__()
        pad = (kernel_size - 1) * dilation
        self.conv = weight_norm(nn.Conv1d(n_in, n_out, kernel_size, padding=pad, dilation=dilation))
        self.chomp = pad
        self.drop = nn.Dropout(dropout)
        self.down = nn.Conv1d(n_in, n_out, 1) if n_in != n_out else None

    def forward(self, x):
        out = self.conv(x)[:, :, :-self.chomp] if self.chomp else self.conv(x)
        out = self.drop(F.relu(out))
        res = x if self.down is None else self.down(x)
        return F.relu(out + res)


class TCN(nn.Module):
    def __init__(self, input_size, output_size, channels, kernel_size=8):
        super().__init__()
        layers, prev = [], input_size
        for i, ch in enumerate(channels):
            layers.append(TemporalBlock(prev, ch, kernel_size, dilation=2 ** i))
            prev = ch
        self.network = nn.Sequential(*layers)
        self.linear = nn.Linear(prev, output_size)

    def forward(self, x):
        return self.linear(self.network(x).transpose(1, 2))


def train(ep, model, optimizer, criterion, train_x, train_y, batch_size, n_classes, clip=1.0, log_interval=100):
    model.train()
    total_loss, correct, counter = 0.0, 0, 0
    for batch_idx, start_ind in enumerate(range(0, train_x.size(0), batch_size)):
        x = train_x[start_ind:start_ind + batch_size]
        y = train_y[start_ind:start_ind + batch_size]
        out = model(x.unsqueeze(1).contiguous())
        loss = criterion(out.reshape(-1, n_classes), y.reshape(-1))
        pred = out.reshape(-1, n_classes).argmax(dim=1)
        correct += (pred == y.reshape(-1)).sum().item()
        counter += pred.numel()
        loss.backward()  # expect: gradients-never-cleared
        if clip > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        total_loss += loss.item()
        if batch_idx > 0 and batch_idx % log_interval == 0:
            print(f"epoch {ep} batch {batch_idx} loss {total_loss / log_interval:.6f} acc {100.0 * correct / max(counter, 1):.2f}")
            total_loss, correct, counter = 0.0, 0, 0
