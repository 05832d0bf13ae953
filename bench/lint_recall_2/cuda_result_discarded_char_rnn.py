# Source: https://github.com/hunkim/PyTorchZeroToAll/pull/6
# Pitfall: The GPU version of the character RNN calls inputs.cuda() as a statement; Tensor.cuda() returns a copy and leaves the original on the CPU, so the batch is never moved and the forward pass fails or runs on the wrong device.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn

idx2char = ["h", "i", "e", "l", "o"]
x_data = [[0, 1, 0, 2, 3, 3]]
y_data = [1, 0, 2, 3, 3, 4]


class CharRNN(nn.Module):
    def __init__(self, num_classes=5, hidden_size=5):
        super().__init__()
        self.rnn = nn.RNN(input_size=num_classes, hidden_size=hidden_size, batch_first=True)
        self.fc = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.fc(out).view(-1, self.fc.out_features)


def main():
    model = CharRNN().cuda()
    inputs = nn.functional.one_hot(torch.tensor(x_data), num_classes=5).float()
    labels = torch.tensor(y_data)
    inputs.cuda()  # expect: tensor-op-result-discarded
    labels = labels.cuda()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
    for epoch in range(100):
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        print(epoch, loss.item())
