# Source: https://github.com/FernandoLpz/Text-Classification-LSTMs-PyTorch/issues/9
# Pitfall: the LSTM classifier returns predictions of shape (64, 1) while the labels are (64,), and both go
#          into binary cross-entropy; the shapes do not match (deprecated broadcast / ValueError), fixed by y.unsqueeze(1).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class TweetLSTM(nn.Module):
    def __init__(self, vocab=5000, emb=64, hidden=128):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, num_layers=2, batch_first=True)
        self.fc = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.lstm(self.embedding(x))
        return self.fc(out[:, -1, :])


def train(epochs=3):
    tokens = torch.randint(1, 5000, (640, 40))
    targets = torch.randint(0, 2, (640,)).float()
    loader = DataLoader(TensorDataset(tokens, targets), batch_size=64, shuffle=True)
    model = TweetLSTM()
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            logits = model(x)
            loss = F.binary_cross_entropy_with_logits(logits, y)  # expect: loss-shape-broadcast
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    train()
