"""Custom SFT loop (trainer-style) with a hand-computed denoising loss and grad accumulation."""
import torch
import torch.nn.functional as F


class CanvasSFTTrainer:
    def __init__(self, model, optimizer, lr_scheduler, gradient_accumulation_steps=8, max_grad_norm=1.0):
        self.model = model
        self.optimizer = optimizer
        self.lr_scheduler = lr_scheduler
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.max_grad_norm = max_grad_norm

    def compute_loss(self, batch):
        outputs = self.model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"])
        logits = outputs.logits.float()
        mask = batch["canvas_mask"]
        return F.cross_entropy(logits[mask], batch["labels"][mask])

    def train(self, dataloader, epochs=1):
        self.model.train()
        step = 0
        for _ in range(epochs):
            for micro_step, batch in enumerate(dataloader):
                loss = self.compute_loss(batch)
                loss.backward()  # expect: accumulation-not-averaged
                if (micro_step + 1) % self.gradient_accumulation_steps == 0:
                    torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)
                    self.optimizer.step()
                    self.lr_scheduler.step()
                    self.optimizer.zero_grad()
                    step += 1
                    if step % 10 == 0:
                        print(f"step {step} loss {loss.item():.4f}")
