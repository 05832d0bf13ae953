# Source: https://github.com/flairNLP/flair/commit/5acc0714db8fd565b2a23be006b0cbc493ea8d5b
# Pitfall: the trainer keeps "the weights before this epoch" as self.model.state_dict() without copying; the
#   dict aliases the live parameters, so the saved "pre-best" model is really the current (best) model.
# Reproduced in our own words, not the original code.
from pathlib import Path

import torch


class AnnealingTrainer:
    def __init__(self, model, corpus, optimizer_cls=torch.optim.SGD):
        self.model = model
        self.corpus = corpus
        self.optimizer_cls = optimizer_cls

    def _run_epoch(self, optimizer, batch_size):
        self.model.train()
        loader = torch.utils.data.DataLoader(self.corpus.train, batch_size=batch_size, shuffle=True,
                                             collate_fn=list)
        total = 0.0
        for batch in loader:
            optimizer.zero_grad()
            loss = self.model.forward_loss(batch)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 5.0)
            optimizer.step()
            total += loss.item()
        return total / max(len(loader), 1)

    def train(self, base_path, learning_rate=0.1, batch_size=32, max_epochs=100, anneal_with_prestarts=True):
        base_path = Path(base_path)
        optimizer = self.optimizer_cls(self.model.parameters(), lr=learning_rate)
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode="max", factor=0.5, patience=3)
        best_score = float("-inf")
        for epoch in range(1, max_epochs + 1):
            last_epoch_model_state_dict = self.model.state_dict()  # expect: state-dict-not-copied
            train_loss = self._run_epoch(optimizer, batch_size)
            current_score = self.model.evaluate(self.corpus.dev)
            scheduler.step(current_score)
            print(f"epoch {epoch} loss {train_loss:.4f} dev {current_score:.4f}")
            if current_score > best_score:
                best_score = current_score
                torch.save(self.model.state_dict(), base_path / "best-model.pt")
                if anneal_with_prestarts:
                    torch.save(last_epoch_model_state_dict, base_path / "pre-best-model.pt")
            if optimizer.param_groups[0]["lr"] < 1e-4:
                break
        return best_score
