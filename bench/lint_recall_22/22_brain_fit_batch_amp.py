"""A speech recipe's `Brain`: one call of fit_batch per mini-batch, with optional AMP and accumulation."""
import torch
import torch.nn.functional as F


class Brain:
    def __init__(self, modules, opt_class, auto_mix_prec=False, grad_accumulation_factor=1,
                 max_grad_norm=5.0, device="cuda"):
        self.modules = torch.nn.ModuleDict(modules).to(device)
        self.optimizer = opt_class(self.modules.parameters())
        self.auto_mix_prec = auto_mix_prec
        self.grad_accumulation_factor = grad_accumulation_factor
        self.max_grad_norm = max_grad_norm
        self.device = device
        self.step = 0
        self.optimizer_step = 0
        self.scaler = torch.cuda.amp.GradScaler(enabled=auto_mix_prec)

    def compute_forward(self, batch):
        feats = self.modules["compute_features"](batch["wav"].to(self.device))
        enc = self.modules["encoder"](feats)
        return F.log_softmax(self.modules["ctc_lin"](enc), dim=-1)

    def compute_objectives(self, log_probs, batch):
        targets = batch["tokens"].to(self.device)
        input_lens = batch["wav_lens"].to(self.device)
        target_lens = batch["token_lens"].to(self.device)
        return F.ctc_loss(log_probs.transpose(0, 1), targets, input_lens, target_lens,
                          blank=0, zero_infinity=True)

    def check_gradients(self, loss):
        if not torch.isfinite(loss):
            return False
        torch.nn.utils.clip_grad_norm_(self.modules.parameters(), self.max_grad_norm)
        return True

    def fit_batch(self, batch):
        self.step += 1
        should_step = self.step % self.grad_accumulation_factor == 0
        if self.auto_mix_prec:
            self.optimizer.zero_grad()  # expect: grad-cleared-before-step
            with torch.cuda.amp.autocast():
                outputs = self.compute_forward(batch)
                loss = self.compute_objectives(outputs, batch)
            self.scaler.scale(loss / self.grad_accumulation_factor).backward()
            if should_step:
                self.scaler.unscale_(self.optimizer)
                if self.check_gradients(loss):
                    self.scaler.step(self.optimizer)
                self.scaler.update()
                self.optimizer_step += 1
        else:
            outputs = self.compute_forward(batch)
            loss = self.compute_objectives(outputs, batch)
            (loss / self.grad_accumulation_factor).backward()
            if should_step:
                if self.check_gradients(loss):
                    self.optimizer.step()
                self.optimizer.zero_grad()
                self.optimizer_step += 1
        return loss.detach().cpu()

    def fit(self, train_loader, epochs):
        for epoch in range(epochs):
            self.modules.train()
            total = 0.0
            for batch in train_loader:
                total += self.fit_batch(batch).item()
            print(f"epoch {epoch}: train loss {total / max(len(train_loader), 1):.4f}")
