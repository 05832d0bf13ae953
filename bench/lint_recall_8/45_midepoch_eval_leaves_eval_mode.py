# Source: https://github.com/ThilinaRajapakse/simpletransformers/issues/941
# Pitfall: evaluation every N steps calls model.eval(), and training resumes without model.train()
# until the next epoch, so dropout is off for the rest of the epoch after the first evaluation.
# Reproduced in our own words, not the original code.
import torch
from torch.utils.data import DataLoader
from transformers import get_linear_schedule_with_warmup


class MaskedLMTrainer:
    def __init__(self, model, tokenizer, device, eval_every=2000, epochs=3, lr=5e-5):
        self.model = model.to(device)
        self.tokenizer = tokenizer
        self.device = device
        self.eval_every = eval_every
        self.epochs = epochs
        self.lr = lr

    def evaluate(self, eval_set):
        loader = DataLoader(eval_set, batch_size=32)
        self.model.eval()
        total, n = 0.0, 0
        with torch.no_grad():
            for batch in loader:
                batch = {k: v.to(self.device) for k, v in batch.items()}
                total += self.model(**batch).loss.item()
                n += 1
        return {"eval_loss": total / max(n, 1)}

    def train(self, train_set, eval_set):
        loader = DataLoader(train_set, batch_size=16, shuffle=True)
        opt = torch.optim.AdamW(self.model.parameters(), lr=self.lr)
        total_steps = len(loader) * self.epochs
        sched = get_linear_schedule_with_warmup(opt, int(0.06 * total_steps), total_steps)
        step = 0
        history = []
        for epoch in range(self.epochs):
            self.model.train()
            for batch in loader:
                batch = {k: v.to(self.device) for k, v in batch.items()}
                loss = self.model(**batch).loss
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                opt.step()
                sched.step()
                opt.zero_grad()
                step += 1
                if step % self.eval_every == 0:
                    scores = self.evaluate(eval_set)  # expect: train-mode-not-restored
                    scores["step"] = step
                    history.append(scores)
                    print(scores)
        return history
