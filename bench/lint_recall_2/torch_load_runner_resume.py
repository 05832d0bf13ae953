# Source: https://github.com/leggedrobotics/rsl_rl/issues/42
# Pitfall: The on-policy runner restores checkpoints with a bare torch.load(path); without weights_only=True (the default before torch 2.6) a crafted checkpoint file can execute arbitrary code when it is unpickled.
# Reproduced in our own words, not the original code.
import torch


class PolicyRunner:
    def __init__(self, actor_critic, optimizer, device="cpu"):
        self.alg_actor_critic = actor_critic
        self.optimizer = optimizer
        self.device = device
        self.current_learning_iteration = 0

    def save(self, path):
        torch.save({
            "model_state_dict": self.alg_actor_critic.state_dict(),
            "optimizer_state_dict": self.optimizer.state_dict(),
            "iter": self.current_learning_iteration,
        }, path)

    def load(self, path, load_optimizer=True):
        loaded_dict = torch.load(path, map_location=self.device)  # expect: torch-load-unsafe
        self.alg_actor_critic.load_state_dict(loaded_dict["model_state_dict"])
        if load_optimizer:
            self.optimizer.load_state_dict(loaded_dict["optimizer_state_dict"])
        self.current_learning_iteration = loaded_dict["iter"]
        return loaded_dict.get("infos")
