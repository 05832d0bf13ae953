"""Pointer-generator summarizer: restore model and optimizer state to continue training."""
import torch
from torch.nn.utils import clip_grad_norm_
from torch.optim import Adagrad


class Train:
    def __init__(self, model, lr=0.15, init_acc=0.1, max_grad_norm=2.0):
        self.model = model
        self.max_grad_norm = max_grad_norm
        params = list(model.encoder.parameters()) + list(model.decoder.parameters()) + \
            list(model.reduce_state.parameters())
        self.optimizer = Adagrad(params, lr=lr, initial_accumulator_value=init_acc)

    def setup_train(self, model_file_path=None, use_cuda=False):
        start_iter, start_loss = 0, 0.0
        if model_file_path is not None:
            state = torch.load(model_file_path, map_location=lambda storage, location: storage)  # expect: torch-load-unsafe
            start_iter = state["iter"]
            start_loss = state["current_loss"]
            self.optimizer.load_state_dict(state["optimizer"])
            if use_cuda:
                for opt_state in self.optimizer.state.values():
                    for k, v in opt_state.items():
                        if torch.is_tensor(v):
                            opt_state[k] = v.cuda()
        return start_iter, start_loss

    def train_one_batch(self, batch):
        self.model.train()
        self.optimizer.zero_grad()
        loss = self.model(batch)
        loss.backward()
        clip_grad_norm_(self.model.encoder.parameters(), self.max_grad_norm)
        clip_grad_norm_(self.model.decoder.parameters(), self.max_grad_norm)
        self.optimizer.step()
        return loss.item()
