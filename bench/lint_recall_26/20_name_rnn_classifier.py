"""Character-level RNN that classifies names by language (hand-rolled recurrent cell)."""
import torch
import torch.nn as nn


class RNN(nn.Module):
    def __init__(self, n_letters, n_hidden, n_classes):
        super().__init__()
        self.n_hidden = n_hidden
        self.hid_fc = nn.Linear(n_letters + n_hidden, n_hidden)
        self.out_fc = nn.Linear(n_letters + n_hidden, n_classes)
        self.softmax = nn.LogSoftmax()  # expect: softmax-without-dim

    def forward(self, inputs, hidden):
        combined = torch.cat([inputs, hidden], dim=1)
        hid_out = torch.tanh(self.hid_fc(combined))
        out = self.softmax(self.out_fc(combined))
        return out, hid_out

    def init_hidden(self, batch_size=1):
        return torch.zeros(batch_size, self.n_hidden)


def train_example(rnn, optimizer, criterion, category_tensor, line_tensor):
    hidden = rnn.init_hidden()
    optimizer.zero_grad()
    for i in range(line_tensor.size(0)):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    optimizer.step()
    return output, loss.item()


def evaluate(rnn, line_tensor):
    rnn.eval()
    with torch.no_grad():
        hidden = rnn.init_hidden()
        for i in range(line_tensor.size(0)):
            output, hidden = rnn(line_tensor[i], hidden)
    rnn.train()
    return output


def fit(rnn, examples, n_iters=100000, lr=0.005, print_every=5000):
    optimizer = torch.optim.SGD(rnn.parameters(), lr=lr)
    criterion = nn.NLLLoss()
    rnn.train()
    current = 0.0
    for it in range(1, n_iters + 1):
        category_tensor, line_tensor = examples[torch.randint(len(examples), (1,)).item()]
        _, loss = train_example(rnn, optimizer, criterion, category_tensor, line_tensor)
        current += loss
        if it % print_every == 0:
            print(f"{it} {current / print_every:.4f}")
            current = 0.0
