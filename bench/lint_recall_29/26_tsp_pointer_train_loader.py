"""Neural combinatorial optimisation (pointer network, REINFORCE) for sorting/TSP."""
import torch
from torch.utils.data import DataLoader, Dataset


class SortingDataset(Dataset):
    def __init__(self, num_samples, seq_len, low=0, high=1000, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.data = torch.randint(low, high, (num_samples, seq_len), generator=g).float()

    def __len__(self):
        return self.data.size(0)

    def __getitem__(self, idx):
        return self.data[idx]


def train(model, critic_baseline, optimizer, args):
    training_dataset = SortingDataset(args["train_size"], args["seq_len"])
    val_dataset = SortingDataset(args["val_size"], args["seq_len"], seed=1)
    training_dataloader = DataLoader(training_dataset, batch_size=int(args["batch_size"]),  # expect: train-loader-not-shuffled
                                     num_workers=1)
    validation_dataloader = DataLoader(val_dataset, batch_size=1, shuffle=False, num_workers=1)

    for epoch in range(args["n_epochs"]):
        model.train()
        for batch_id, sample_batch in enumerate(training_dataloader):
            R, probs, actions, idxs = model(sample_batch)
            if batch_id == 0 and epoch == 0:
                critic_baseline = R.mean()
            else:
                critic_baseline = critic_baseline * args["beta"] + (1.0 - args["beta"]) * R.mean()
            advantage = R - critic_baseline.detach()
            logprobs = sum(torch.log(p.clamp_min(1e-8)) for p in probs)
            actor_loss = (advantage * logprobs).mean()
            optimizer.zero_grad()
            actor_loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args["max_grad_norm"])
            optimizer.step()

        model.eval()
        rewards = []
        with torch.no_grad():
            for val_batch in validation_dataloader:
                R, _, _, _ = model(val_batch)
                rewards.append(R.mean().item())
        print(f"epoch {epoch}: avg val reward {sum(rewards) / len(rewards):.3f}")
    return critic_baseline
