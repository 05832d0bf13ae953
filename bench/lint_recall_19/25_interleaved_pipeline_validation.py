"""GPT pretraining module whose model is split into several virtual-pipeline
chunks. The chunks live in a plain Python list (each one is placed and wrapped by
the pipeline scheduler), so the LightningModule's own train()/eval() does not
reach them and the steps switch their mode by hand."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import pytorch_lightning as pl


class GPTChunk(nn.Module):
    def __init__(self, d_model, n_layers, heads, dropout=0.1):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model, heads, 4 * d_model, dropout, batch_first=True, norm_first=True)
        self.layers = nn.TransformerEncoder(layer, n_layers)

    def forward(self, h, mask):
        return self.layers(h, mask=mask, is_causal=True)


class MegatronStyleGPT(pl.LightningModule):
    def __init__(self, vocab=50304, d_model=768, chunks=4, layers_per_chunk=3, heads=12, lr=6e-4):
        super().__init__()
        self.save_hyperparameters()
        self.embed = nn.Embedding(vocab, d_model)
        self.model = [GPTChunk(d_model, layers_per_chunk, heads) for _ in range(chunks)]
        self.lm_head = nn.Linear(d_model, vocab, bias=False)

    def _run_chunks(self, tokens):
        t = tokens.size(1)
        mask = nn.Transformer.generate_square_subsequent_mask(t, device=tokens.device)
        h = self.embed(tokens)
        for chunk in self.model:
            h = chunk(h, mask)
        return self.lm_head(h)

    def training_step(self, batch, batch_idx):
        for chunk in self.model:
            chunk.train()
        logits = self._run_chunks(batch["tokens"])
        loss = F.cross_entropy(logits.flatten(0, 1), batch["labels"].flatten())
        self.log("reduced_train_loss", loss, prog_bar=True)
        return loss

    @torch.no_grad()
    def validation_step(self, batch, batch_idx):
        logits = self._run_chunks(batch["tokens"])  # expect: validation-in-train-mode
        loss = F.cross_entropy(logits.flatten(0, 1), batch["labels"].flatten())
        self.log("val_loss", loss, sync_dist=True)
        return loss

    def on_fit_start(self):
        for chunk in self.model:
            chunk.to(self.device)

    def configure_optimizers(self):
        params = list(self.parameters())
        for chunk in self.model:
            params += list(chunk.parameters())
        return torch.optim.AdamW(params, lr=self.hparams.lr, betas=(0.9, 0.95), weight_decay=0.1)
