"""Transformer NMT training manager: logs epoch loss and validates every N steps."""
import time

import torch
import torch.nn as nn


class TrainManager:
    def __init__(self, model, pad_index, lr=2e-4, clip=1.0, validation_freq=1000, device="cpu"):
        self.model = model.to(device)
        self.device = device
        self.loss = nn.CrossEntropyLoss(ignore_index=pad_index, label_smoothing=0.1)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr, betas=(0.9, 0.98))
        self.clip = clip
        self.validation_freq = validation_freq
        self.steps = 0

    def _train_batch(self, src, trg_in, trg_out):
        logits = self.model(src, trg_in)
        batch_loss = self.loss(logits.reshape(-1, logits.size(-1)), trg_out.reshape(-1))
        self.optimizer.zero_grad()
        batch_loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        self.optimizer.step()
        self.steps += 1
        return batch_loss

    @torch.no_grad()
    def validate(self, valid_iter):
        self.model.eval()
        total, n = 0.0, 0
        for src, trg_in, trg_out in valid_iter:
            logits = self.model(src.to(self.device), trg_in.to(self.device))
            total += self.loss(logits.reshape(-1, logits.size(-1)), trg_out.to(self.device).reshape(-1)).item()
            n += 1
        self.model.train()
        return total / max(n, 1)

    def train_and_validate(self, train_iter, valid_iter, epochs):
        for epoch_no in range(epochs):
            self.model.train()
            start = time.time()
            epoch_loss = 0
            for src, trg_in, trg_out in train_iter:
                src, trg_in, trg_out = src.to(self.device), trg_in.to(self.device), trg_out.to(self.device)
                batch_loss = self._train_batch(src, trg_in, trg_out)
                epoch_loss += batch_loss  # expect: running-loss-keeps-graph
                if self.steps % self.validation_freq == 0:
                    valid_loss = self.validate(valid_iter)
                    print(f"step {self.steps}: valid loss {valid_loss:.3f}")
            print(f"epoch {epoch_no + 1}: total training loss {float(epoch_loss):.2f} ({time.time() - start:.0f}s)")


class Seq2SeqTransformer(nn.Module):
    def __init__(self, vocab=8000, d_model=256):
        super().__init__()
        self.src_embed = nn.Embedding(vocab, d_model)
        self.trg_embed = nn.Embedding(vocab, d_model)
        self.transformer = nn.Transformer(d_model, nhead=4, num_encoder_layers=3, num_decoder_layers=3,
                                          batch_first=True)
        self.generator = nn.Linear(d_model, vocab)

    def forward(self, src, trg):
        mask = self.transformer.generate_square_subsequent_mask(trg.size(1)).to(trg.device)
        out = self.transformer(self.src_embed(src), self.trg_embed(trg), tgt_mask=mask)
        return self.generator(out)


if __name__ == "__main__":
    data = [(torch.randint(1, 8000, (16, 20)), torch.randint(1, 8000, (16, 21)), torch.randint(1, 8000, (16, 21)))
            for _ in range(5)]
    TrainManager(Seq2SeqTransformer(), pad_index=0, validation_freq=3).train_and_validate(data, data[:2], epochs=1)
