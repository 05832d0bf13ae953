"""Keras-style fit loop for a modular PyTorch model with several loss components."""
import time

import torch
import torch.nn as nn


class ModularModel:
    def __init__(self, model: nn.Module, loss_func, learning_rate=1e-3, device=None,
                 log_frequency=100, checkpoint_interval=1000):
        self.model = model
        self.loss_func = loss_func
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model.to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=learning_rate)
        self.log_frequency = log_frequency
        self.checkpoint_interval = checkpoint_interval
        self._global_step = 0

    def save_checkpoint(self, path="checkpoint.pt"):
        torch.save({"model": self.model.state_dict(),
                    "optimizer": self.optimizer.state_dict(),
                    "step": self._global_step}, path)

    def fit_generator(self, generator, checkpoint_path="checkpoint.pt"):
        self.model.train()
        avg_loss, last_avg_loss = 0.0, 0.0
        averaged_batches = 0
        all_losses = []
        t0 = time.time()
        for inputs, labels, weights in generator:
            inputs = [x.to(self.device) for x in inputs]
            labels = [y.to(self.device) for y in labels]
            weights = [w.to(self.device) for w in weights]

            self.optimizer.zero_grad()
            batch_loss = self.loss_func(inputs, labels, weights)
            batch_loss.backward()
            self.optimizer.step()
            self._global_step += 1

            avg_loss += batch_loss  # expect: running-loss-keeps-graph
            averaged_batches += 1
            if self._global_step % self.log_frequency == 0:
                avg_loss = float(avg_loss) / max(averaged_batches, 1)
                print(f"Ending global_step {self._global_step}: Average loss {avg_loss:.6f}")
                all_losses.append(avg_loss)
                last_avg_loss = avg_loss
                avg_loss, averaged_batches = 0.0, 0
            if self.checkpoint_interval > 0 and self._global_step % self.checkpoint_interval == 0:
                self.save_checkpoint(checkpoint_path)

        if averaged_batches > 0:
            avg_loss = float(avg_loss) / max(averaged_batches, 1)
            all_losses.append(avg_loss)
            last_avg_loss = avg_loss
        print(f"TIMING: model fitting took {time.time() - t0:.3f} s")
        return last_avg_loss, all_losses
