"""Style: a Lightning module (framework loop; only the maths can be wrong)."""
import lightning as L
import torch
import torch.nn.functional as F
from torch import nn


class LitTagger(L.LightningModule):
    def __init__(self, vocab, n_tags, d=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.lstm = nn.LSTM(d, d, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * d, n_tags)

    def forward(self, tokens):
        h, _ = self.lstm(self.emb(tokens))
        return self.head(h)

    def training_step(self, batch, batch_idx):
        tokens, tags = batch
        probs = torch.softmax(self(tokens), dim=-1)
        loss = F.nll_loss(torch.log(probs).transpose(1, 2), tags)  # expect: log-of-softmax
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        tokens, tags = batch
        logits = self(tokens)
        self.log("val_loss", F.cross_entropy(logits.transpose(1, 2), tags))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
