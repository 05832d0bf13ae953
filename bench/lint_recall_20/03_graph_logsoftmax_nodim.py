"""Spline-conv graph classifier for cuneiform sign graphs."""
import torch
import torch.nn.functional as F
from torch import nn
from torch_geometric.loader import DataLoader
from torch_geometric.nn import SplineConv, global_mean_pool


class SignNet(nn.Module):
    def __init__(self, in_channels, num_classes):
        super().__init__()
        self.conv1 = SplineConv(in_channels, 32, dim=2, kernel_size=5)
        self.conv2 = SplineConv(32, 64, dim=2, kernel_size=5)
        self.fc1 = nn.Linear(64, 128)
        self.fc2 = nn.Linear(128, num_classes)

    def forward(self, data):
        x = F.elu(self.conv1(data.x, data.edge_index, data.edge_attr))
        x = F.elu(self.conv2(x, data.edge_index, data.edge_attr))
        x = global_mean_pool(x, data.batch)
        x = F.elu(self.fc1(x))
        x = F.dropout(x, p=0.5, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x)  # expect: softmax-without-dim


def run(train_set, test_set, num_classes, epochs=50):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SignNet(train_set.num_features, num_classes).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True)
    test_loader = DataLoader(test_set, batch_size=64)

    for epoch in range(1, epochs + 1):
        model.train()
        for data in train_loader:
            data = data.to(device)
            optimizer.zero_grad()
            loss = F.nll_loss(model(data), data.y)
            loss.backward()
            optimizer.step()

        model.eval()
        correct = 0
        with torch.no_grad():
            for data in test_loader:
                data = data.to(device)
                pred = model(data).argmax(dim=1)
                correct += int((pred == data.y).sum())
        print(f"epoch {epoch:03d} test acc {correct / len(test_set):.4f}")
