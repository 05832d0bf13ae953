# Source: https://github.com/google/gemma_pytorch/issues/1
# Pitfall: torch.load of a downloaded checkpoint without weights_only=True runs any pickled
# code in the file.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class CausalLM(nn.Module):
    def load_weights(self, model_path: str):
        state = torch.load(model_path, mmap=True)  # expect: torch-load-unsafe
        self.load_state_dict(state["model_state_dict"], strict=False)
