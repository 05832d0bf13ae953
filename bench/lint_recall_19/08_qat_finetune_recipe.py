"""Single-device recipe: fine-tune a causal LM with fake-quantization (QAT)
inserted into its linear layers and gradient accumulation over micro-batches."""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


class QATRecipe:
    def __init__(self, model, quantizer, dataset, collate_fn, lr=2e-5, batch_size=4, grad_accum=8, epochs=1):
        self._device = torch.device("cuda")
        self._model = quantizer.prepare(model).to(self._device)
        self._optimizer = torch.optim.AdamW(self._model.parameters(), lr=lr, fused=True)
        self._loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, collate_fn=collate_fn,
                                  num_workers=4, pin_memory=True)
        self._gradient_accumulation_steps = grad_accum
        self._epochs = epochs
        self._ignore_index = -100

    def _loss(self, logits, labels):
        logits = logits[..., :-1, :].reshape(-1, logits.size(-1))
        labels = labels[..., 1:].reshape(-1)
        return F.cross_entropy(logits.float(), labels, ignore_index=self._ignore_index)

    def train(self):
        self._model.train()
        self._optimizer.zero_grad(set_to_none=True)
        running_loss = 0.0
        step = 0
        for epoch in range(self._epochs):
            for idx, batch in enumerate(self._loader):
                batch = {k: v.to(self._device, non_blocking=True) for k, v in batch.items()}
                labels = batch.pop("labels")
                logits = self._model(**batch)
                current_loss = self._loss(logits, labels) / self._gradient_accumulation_steps
                del logits

                running_loss += current_loss.detach()
                current_loss.backward  # expect: method-not-called

                if (idx + 1) % self._gradient_accumulation_steps == 0:
                    torch.nn.utils.clip_grad_norm_(self._model.parameters(), max_norm=1.0)
                    self._optimizer.step()
                    self._optimizer.zero_grad(set_to_none=True)
                    step += 1
                    if step % 10 == 0:
                        print(f"epoch {epoch} step {step} loss {running_loss.item():.4f}")
                    running_loss = 0.0

    def save(self, path):
        torch.save(self._model.state_dict(), path)
