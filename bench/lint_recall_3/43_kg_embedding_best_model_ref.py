# Source: https://github.com/thunlp/OpenKE/pull/131
# Pitfall: When validation improves, the trainer remembers the best model as trainModel.state_dict()
# without copying; the dict aliases the live parameters, so "best" is always the latest weights.
# Reproduced in our own words, not the original code.
import torch


class KGTrainer:
    def __init__(self, model, sampler, valid_fn, lr=0.5, epochs=1000, valid_every=50):
        self.model = model
        self.sampler = sampler
        self.valid_fn = valid_fn
        self.optimizer = torch.optim.Adagrad(model.parameters(), lr=lr)
        self.epochs = epochs
        self.valid_every = valid_every
        self.best_model = None
        self.best_hit10 = 0.0

    def train_batch(self, pos, neg):
        self.optimizer.zero_grad()
        loss = self.model(pos, neg)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def run(self):
        for epoch in range(self.epochs):
            self.model.train()
            for pos, neg in self.sampler:
                self.train_batch(pos, neg)
            if (epoch + 1) % self.valid_every == 0:
                self.model.eval()
                with torch.no_grad():
                    hit10 = self.valid_fn(self.model)
                if hit10 > self.best_hit10:
                    self.best_hit10 = hit10
                    self.best_model = self.model.state_dict()  # expect: state-dict-not-copied
        if self.best_model is not None:
            self.model.load_state_dict(self.best_model)
        return self.model
