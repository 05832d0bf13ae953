# Source: https://github.com/IBM/pytorch-seq2seq/pull/38
# Pitfall: the Evaluator computes the dev-set loss and accuracy without putting the model in
#   eval mode, so decoder dropout is applied during evaluation and the dev scores are wrong.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class Evaluator:
    def __init__(self, pad_id, batch_size=64):
        self.loss_fn = nn.NLLLoss(ignore_index=pad_id)
        self.pad_id = pad_id
        self.batch_size = batch_size

    def evaluate(self, model, batches, device):
        total_loss, n_batches = 0.0, 0
        match, total = 0, 0
        with torch.no_grad():
            for src, src_len, tgt in batches:
                src, tgt = src.to(device), tgt.to(device)
                decoder_out = model(src, src_len, tgt)  # expect: validation-in-train-mode
                log_probs = decoder_out[:, :-1].reshape(-1, decoder_out.size(-1))
                gold = tgt[:, 1:].reshape(-1)
                total_loss += self.loss_fn(log_probs, gold).item()
                n_batches += 1
                keep = gold.ne(self.pad_id)
                match += log_probs.argmax(-1).eq(gold).masked_select(keep).sum().item()
                total += keep.sum().item()
        accuracy = match / total if total > 0 else float("nan")
        return total_loss / max(n_batches, 1), accuracy


class SupervisedTrainer:
    def __init__(self, model, pad_id, lr=1e-3):
        self.model = model
        self.loss_fn = nn.NLLLoss(ignore_index=pad_id)
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.evaluator = Evaluator(pad_id)

    def train(self, train_batches, dev_batches, n_epochs, device):
        for epoch in range(n_epochs):
            self.model.train()
            for src, src_len, tgt in train_batches:
                src, tgt = src.to(device), tgt.to(device)
                self.optimizer.zero_grad()
                out = self.model(src, src_len, tgt)
                loss = self.loss_fn(out[:, :-1].reshape(-1, out.size(-1)), tgt[:, 1:].reshape(-1))
                loss.backward()
                self.optimizer.step()
            dev_loss, dev_acc = self.evaluator.evaluate(self.model, dev_batches, device)
            print(f"epoch {epoch}: dev loss {dev_loss:.3f} acc {dev_acc:.3f}")
