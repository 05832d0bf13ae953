import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, emb=256, hidden=512, dropout=0.3, sos_id=1):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, emb)
        self.tgt_emb = nn.Embedding(tgt_vocab, emb)
        self.encoder = nn.GRU(emb, hidden, batch_first=True)
        self.decoder = nn.GRU(emb, hidden, batch_first=True)
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(hidden, tgt_vocab)
        self.sos_id = sos_id

    def forward(self, src, tgt, teacher_forcing_ratio=0.5):
        _, hidden = self.encoder(self.dropout(self.src_emb(src)))
        inp = torch.full((src.size(0), 1), self.sos_id, dtype=torch.long, device=src.device)
        outputs = []
        for t in range(tgt.size(1)):
            dec_out, hidden = self.decoder(self.dropout(self.tgt_emb(inp)), hidden)
            step_logits = self.out(dec_out.squeeze(1))
            outputs.append(F.log_softmax(step_logits, dim=-1))
            use_tf = random.random() < teacher_forcing_ratio
            inp = tgt[:, t:t + 1] if use_tf else step_logits.argmax(-1, keepdim=True)
        return torch.stack(outputs, dim=1)


class Evaluator:
    """Computes the token-level NLL and accuracy of a model on a held-out set."""

    def __init__(self, pad_id=0, batch_size=64):
        self.pad_id = pad_id
        self.batch_size = batch_size
        self.criterion = nn.NLLLoss(ignore_index=pad_id, reduction="sum")

    def evaluate(self, model, batches):
        total_loss, n_tokens, n_correct = 0.0, 0, 0
        with torch.no_grad():
            for src, tgt in batches:
                log_probs = model(src, tgt, teacher_forcing_ratio=0.0)  # expect: validation-in-train-mode
                flat = log_probs.reshape(-1, log_probs.size(-1))
                gold = tgt.reshape(-1)
                total_loss += self.criterion(flat, gold).item()
                mask = gold.ne(self.pad_id)
                n_tokens += mask.sum().item()
                n_correct += flat.argmax(-1).eq(gold).masked_select(mask).sum().item()
        n_tokens = max(n_tokens, 1)
        return total_loss / n_tokens, n_correct / n_tokens


class SupervisedTrainer:
    def __init__(self, model, optimizer, evaluator, pad_id=0):
        self.model = model
        self.optimizer = optimizer
        self.evaluator = evaluator
        self.criterion = nn.NLLLoss(ignore_index=pad_id)

    def train_epochs(self, train_batches, dev_batches, n_epochs=10, tf_ratio=0.5):
        for epoch in range(1, n_epochs + 1):
            self.model.train()
            for src, tgt in train_batches:
                log_probs = self.model(src, tgt, teacher_forcing_ratio=tf_ratio)
                loss = self.criterion(log_probs.reshape(-1, log_probs.size(-1)), tgt.reshape(-1))
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.model.parameters(), 5.0)
                self.optimizer.step()
            dev_loss, dev_acc = self.evaluator.evaluate(self.model, dev_batches)
            print(f"epoch {epoch}: dev nll {dev_loss:.4f}, acc {dev_acc:.4f}")
