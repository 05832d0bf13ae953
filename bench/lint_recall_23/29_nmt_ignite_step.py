"""Ignite engine step for seq2seq NMT with optional gradient accumulation."""
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.nn.utils as torch_utils
from ignite.engine import Engine


class MaximumLikelihoodEstimationEngine(Engine):
    def __init__(self, func, model, crit, optimizer, config):
        self.model = model
        self.crit = crit
        self.optimizer = optimizer
        self.config = config
        super().__init__(func)

    @staticmethod
    def train(engine, mini_batch):
        engine.model.train()
        if engine.state.iteration % engine.config.iteration_per_update == 1:  # expect: gradients-never-cleared
            engine.optimizer.zero_grad()

        x, y = mini_batch
        y_hat = engine.model(x, y[:, :-1])
        loss = engine.crit(y_hat.reshape(-1, y_hat.size(-1)), y[:, 1:].reshape(-1))
        backward_target = loss.div(engine.config.iteration_per_update)
        backward_target.backward()

        if engine.state.iteration % engine.config.iteration_per_update == 0:
            torch_utils.clip_grad_norm_(engine.model.parameters(), engine.config.max_grad_norm)
            engine.optimizer.step()
        return {"loss": float(loss)}


class TinySeq2Seq(nn.Module):
    def __init__(self, vocab=8000, dim=256):
        super().__init__()
        self.src_emb = nn.Embedding(vocab, dim)
        self.tgt_emb = nn.Embedding(vocab, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.decoder = nn.GRU(dim, dim, batch_first=True)
        self.generator = nn.Linear(dim, vocab)

    def forward(self, src, tgt_in):
        _, h = self.encoder(self.src_emb(src))
        out, _ = self.decoder(self.tgt_emb(tgt_in), h)
        return self.generator(out)


if __name__ == "__main__":
    config = SimpleNamespace(iteration_per_update=1, max_grad_norm=5.0, n_epochs=10)
    model = TinySeq2Seq()
    crit = nn.CrossEntropyLoss(ignore_index=0)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    trainer = MaximumLikelihoodEstimationEngine(MaximumLikelihoodEstimationEngine.train, model, crit, optimizer, config)
    batches = [(torch.randint(1, 8000, (32, 20)), torch.randint(1, 8000, (32, 22))) for _ in range(100)]
    trainer.run(batches, max_epochs=config.n_epochs)
