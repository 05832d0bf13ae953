"""Binary tweet classifier: embedding + LSTM + one-logit head."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class TweetClassifier(nn.Module):
    def __init__(self, vocab, emb=64, hidden=128):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, num_layers=2, batch_first=True)
        self.fc = nn.Linear(hidden, 1)

    def forward(self, x):
        h, _ = self.lstm(self.embedding(x))
        return self.fc(h[:, -1, :])


def train(model, train_set, epochs=10, lr=1e-3, batch_size=64):
    loader = DataLoader(train_set, batch_size=batch_size, shuffle=True)
    optimizer = torch.optim.RMSprop(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        for x_batch, y_batch in loader:
            x = x_batch.long()
            y = y_batch.float()
            y_pred = model(x)
            loss = F.binary_cross_entropy_with_logits(y_pred, y)  # expect: loss-shape-broadcast
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
