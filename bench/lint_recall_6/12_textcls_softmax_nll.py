# Source: https://github.com/AnubhavGupta3377/Text-Classification-Models-Pytorch/issues/9
# Pitfall: the transformer classifier returns softmax probabilities but is trained with NLLLoss, which expects
#   log-probabilities; the loss goes negative and the gradient no longer matches cross-entropy.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class TinyTransformerClassifier(nn.Module):
    def __init__(self, vocab=5000, d_model=64, n_classes=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead=4, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.fc = nn.Linear(d_model, n_classes)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, tokens):
        h = self.encoder(self.embed(tokens)).mean(dim=1)
        return self.softmax(self.fc(h))


class Runner:
    def __init__(self):
        self.model = TinyTransformerClassifier()
        self.loss_op = nn.NLLLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def run_batch(self, tokens, labels):
        self.model.train()
        self.optimizer.zero_grad()
        y_pred = self.model(tokens)
        loss = self.loss_op(y_pred, labels)  # expect: softmax-before-cross-entropy
        loss.backward()
        self.optimizer.step()
        return loss.item()
