"""Full-parameter fine-tuning recipe for a decoder LM on one GPU, with
gradient accumulation and periodic logging of the running loss."""
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


class FullFinetuneRecipeSingleDevice:
    def __init__(self, model, tokenizer, dataset, collate, lr=2e-5, batch_size=2,
                 gradient_accumulation_steps=16, epochs=1, log_every_n_steps=1):
        self._device = torch.device("cuda")
        self._model = model.to(self._device, dtype=torch.bfloat16)
        self._tokenizer = tokenizer
        self._optimizer = torch.optim.AdamW(self._model.parameters(), lr=lr)
        self._dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=True, collate_fn=collate,
                                      num_workers=4, pin_memory=True)
        self._gradient_accumulation_steps = gradient_accumulation_steps
        self.total_epochs = epochs
        self._log_every_n_steps = log_every_n_steps
        self.global_step = 0

    def _loss_step(self, batch):
        labels = batch.pop("labels")
        logits = self._model(**batch)
        logits = logits[:, :-1].reshape(-1, logits.size(-1)).float()
        labels = labels[:, 1:].reshape(-1)
        return F.cross_entropy(logits, labels, ignore_index=-100)

    def train(self):
        self._model.train()
        self._optimizer.zero_grad()
        running_loss = 0
        t0 = time.perf_counter()
        for curr_epoch in range(self.total_epochs):
            for idx, batch in enumerate(self._dataloader):
                batch = {k: v.to(self._device, non_blocking=True) for k, v in batch.items()}
                current_loss = self._loss_step(batch) / self._gradient_accumulation_steps
                running_loss += current_loss  # expect: running-loss-keeps-graph
                current_loss.backward()

                if (idx + 1) % self._gradient_accumulation_steps == 0:
                    torch.nn.utils.clip_grad_norm_(self._model.parameters(), max_norm=1.0)
                    self._optimizer.step()
                    self._optimizer.zero_grad(set_to_none=True)
                    self.global_step += 1

                    loss_to_log = running_loss.item()
                    if self.global_step % self._log_every_n_steps == 0:
                        print(f"epoch {curr_epoch} step {self.global_step} loss {loss_to_log:.4f} "
                              f"({time.perf_counter() - t0:.1f}s)")
                    running_loss = 0
                    t0 = time.perf_counter()
