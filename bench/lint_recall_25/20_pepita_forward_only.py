"""PEPITA (forward-only learning) for a fully connected net on CIFAR-10-sized inputs."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NetFC(nn.Module):
    def __init__(self, sizes=(3072, 1024, 10)):
        super().__init__()
        self.fc1 = nn.Linear(sizes[0], sizes[1], bias=False)
        self.fc2 = nn.Linear(sizes[1], sizes[2], bias=False)
        fan = sizes[0]
        self.register_buffer("B", (torch.rand(sizes[0], sizes[2]) * 2 - 1) * 0.05 * (6.0 / fan) ** 0.5)

    def forward(self, x, do_drop=True):
        h = F.relu(self.fc1(x))
        if do_drop:
            h = F.dropout(h, p=0.1, training=self.training)
        return F.softmax(self.fc2(h), dim=1)

    @torch.no_grad()
    def modulated_update(self, x, target_onehot, out, lr):
        err = out - target_onehot
        x_mod = x + err @ self.B.t()
        h1 = F.relu(self.fc1(x))
        h1_mod = F.relu(self.fc1(x_mod))
        out_mod = F.softmax(self.fc2(h1_mod), dim=1)
        self.fc1.weight -= lr * (h1 - h1_mod).t() @ x_mod / x.size(0)
        self.fc2.weight -= lr * (out_mod - target_onehot).t() @ h1_mod / x.size(0)


def train(epochs=5, lr=0.01, batch=64):
    net = NetFC()
    criterion = nn.CrossEntropyLoss()
    x_all, y_all = torch.randn(2048, 3072), torch.randint(0, 10, (2048,))
    for epoch in range(epochs):
        net.train()
        perm = torch.randperm(x_all.size(0))
        running = 0.0
        for i in range(0, x_all.size(0), batch):
            idx = perm[i:i + batch]
            inputs, labels = x_all[idx], y_all[idx]
            outputs = net(inputs)
            loss = criterion(outputs, labels)  # expect: softmax-before-cross-entropy
            running += loss.item()
            net.modulated_update(inputs, F.one_hot(labels, 10).float(), outputs, lr)
        print(f"epoch {epoch}: loss {running / (x_all.size(0) // batch):.4f}")


if __name__ == "__main__":
    train()
