"""Character-level LSTM text generator (book chapter style): model, training loop, sampling."""
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical


class RNN(nn.Module):
    def __init__(self, vocab_size, embed_dim, rnn_hidden_size):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.rnn_hidden_size = rnn_hidden_size
        self.rnn = nn.LSTM(embed_dim, rnn_hidden_size, batch_first=True)
        self.fc = nn.Linear(rnn_hidden_size, vocab_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, x, hidden, cell):
        out = self.embedding(x).unsqueeze(1)
        out, (hidden, cell) = self.rnn(out, (hidden, cell))
        out = self.fc(out).reshape(out.size(0), -1)
        return self.softmax(out), hidden, cell  # expect: softmax-before-cross-entropy

    def init_hidden(self, batch_size, device):
        hidden = torch.zeros(1, batch_size, self.rnn_hidden_size, device=device)
        cell = torch.zeros(1, batch_size, self.rnn_hidden_size, device=device)
        return hidden, cell


def train(model, seq_dl, seq_length, num_epochs=10000, device="cuda"):
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.005)
    for epoch in range(num_epochs):
        model.train()
        hidden, cell = model.init_hidden(seq_dl.batch_size, device)
        seq_batch, target_batch = next(iter(seq_dl))
        seq_batch, target_batch = seq_batch.to(device), target_batch.to(device)
        optimizer.zero_grad()
        loss = 0
        for c in range(seq_length):
            pred, hidden, cell = model(seq_batch[:, c], hidden, cell)
            loss += loss_fn(pred, target_batch[:, c])
        loss.backward()
        optimizer.step()
        if epoch % 500 == 0:
            print(f"Epoch {epoch} loss: {loss.item() / seq_length:.4f}")


@torch.no_grad()
def sample(model, encoded_input, len_generated_text=500, scale_factor=1.0, device="cuda"):
    model.eval()
    hidden, cell = model.init_hidden(1, device)
    for c in range(len(encoded_input) - 1):
        _, hidden, cell = model(encoded_input[c].view(1).to(device), hidden, cell)
    last_char = encoded_input[-1].view(1).to(device)
    generated = []
    for _ in range(len_generated_text):
        logits, hidden, cell = model(last_char, hidden, cell)
        last_char = Categorical(logits=logits.squeeze(0) * scale_factor).sample().view(1)
        generated.append(last_char.item())
    return generated
