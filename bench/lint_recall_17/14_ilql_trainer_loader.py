"""Offline RL (ILQL-style) trainer: rollout store, loader and the update loop."""
import torch
from torch.utils.data import DataLoader, Dataset


class RolloutStore(Dataset):
    def __init__(self, input_ids, rewards, actions_ixs, states_ixs, dones):
        self.input_ids = input_ids
        self.rewards = rewards
        self.actions_ixs = actions_ixs
        self.states_ixs = states_ixs
        self.dones = dones

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, ix):
        return (self.input_ids[ix], self.rewards[ix], self.actions_ixs[ix], self.states_ixs[ix], self.dones[ix])


def collate(batch):
    pad = torch.nn.utils.rnn.pad_sequence
    ids, rewards, a_ix, s_ix, dones = zip(*batch)
    return pad(ids, batch_first=True), pad(rewards, batch_first=True), pad(a_ix, batch_first=True), pad(s_ix, batch_first=True), pad(dones, batch_first=True)


class ILQLTrainer:
    def __init__(self, model, store, config, accelerator):
        self.model = model
        self.store = store
        self.config = config
        self.accelerator = accelerator
        self.opt = torch.optim.AdamW(model.parameters(), lr=config["lr"])

    def create_train_dataloader(self):
        loader = DataLoader(self.store, batch_size=self.config["batch_size"], collate_fn=collate)  # expect: train-loader-not-shuffled
        return self.accelerator.prepare(loader)

    def learn(self):
        train_dataloader = self.create_train_dataloader()
        for epoch in range(self.config["epochs"]):
            for batch in train_dataloader:
                self.model.train()
                loss = self.model.loss(batch)
                self.opt.zero_grad()
                self.accelerator.backward(loss)
                self.opt.step()
                if (epoch + 1) % self.config["sync_every"] == 0:
                    self.model.sync_target_q_heads()
