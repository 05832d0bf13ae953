# Source: https://github.com/yunjey/pytorch-tutorial/commit/e217e42e600ece714d047a6c7bcb098728cfa3ae
# Pitfall: after training, the row-by-row LSTM classifier is tested under torch.no_grad() but never switched
#   to eval mode, so any dropout or batch-norm inside it still behaves as in training during the test.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
rows, row_len, hidden, layers, n_cls = 28, 28, 128, 2, 10


class RowLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(row_len, hidden, layers, batch_first=True, dropout=0.2)
        self.out = nn.Linear(hidden, n_cls)

    def forward(self, x):
        h0 = torch.zeros(layers, x.size(0), hidden, device=x.device)
        c0 = torch.zeros(layers, x.size(0), hidden, device=x.device)
        seq, _ = self.lstm(x, (h0, c0))
        return self.out(seq[:, -1, :])


def main(train_loader, test_loader, epochs=2):
    model = RowLSTM().to(device)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    model.train()
    for epoch in range(epochs):
        for i, (images, labels) in enumerate(train_loader):
            images = images.reshape(-1, rows, row_len).to(device)
            labels = labels.to(device)
            loss = loss_fn(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    with torch.no_grad():
        correct = total = 0
        for images, labels in test_loader:
            images = images.reshape(-1, rows, row_len).to(device)
            labels = labels.to(device)
            outputs = model(images)  # expect: validation-in-train-mode
            _, predicted = torch.max(outputs.data, 1)
            total += labels.size(0)
            correct += (predicted == labels).sum().item()
        print("test accuracy: {} %".format(100 * correct / total))
