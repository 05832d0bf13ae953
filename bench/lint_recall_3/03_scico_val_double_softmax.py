# Source: https://github.com/ariecattan/SciCo/issues/2
# Pitfall: In the validation step the pair classifier's logits are turned into probabilities and then
# given to the cross-entropy criterion, which softmaxes again; the validation loss stalls near 1.0.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import pytorch_lightning as pl


class PairRelationModel(pl.LightningModule):
    def __init__(self, encoder, hidden=768, n_relations=4, lr=2e-5):
        super().__init__()
        self.encoder = encoder
        self.head = nn.Linear(hidden, n_relations)
        self.loss_fn = nn.CrossEntropyLoss()
        self.lr = lr

    def forward(self, input_ids, attention_mask):
        pooled = self.encoder(input_ids=input_ids, attention_mask=attention_mask).pooler_output
        return self.head(pooled)

    def training_step(self, batch, batch_idx):
        logits = self(batch["input_ids"], batch["attention_mask"])
        loss = self.loss_fn(logits, batch["labels"])
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        logits = self(batch["input_ids"], batch["attention_mask"])
        probs = logits.softmax(dim=-1)
        val_loss = self.loss_fn(probs, batch["labels"])  # expect: softmax-before-cross-entropy
        self.log("val_loss", val_loss)
        return val_loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.lr)
