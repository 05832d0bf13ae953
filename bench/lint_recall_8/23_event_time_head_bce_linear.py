# Source: https://github.com/pytorch/pytorch/issues/5560
# Pitfall: the "time" head of a sequence model is a plain Linear layer whose output is passed to
# F.binary_cross_entropy; values outside [0, 1] trip the CUDA assert / give meaningless loss.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class EventModel(nn.Module):
    def __init__(self, n_events=32, hidden=64, n_bins=24):
        super().__init__()
        self.embed = nn.Embedding(n_events, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.event_head = nn.Linear(hidden, n_events)
        self.time_head = nn.Linear(hidden, n_bins)

    def forward(self, events):
        h, _ = self.rnn(self.embed(events))
        last = h[:, -1]
        return self.event_head(last), self.time_head(last)


class Worker:
    def __init__(self, model, lr=1e-3, device="cpu"):
        self.model = model.to(device)
        self.device = device
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def train(self, batches):
        self.model.train()
        for events, next_event, time_hist in batches:
            events = events.to(self.device)
            next_event = next_event.to(self.device)
            time_hist = time_hist.to(self.device)
            event_logits, time_pred = self.model(events)
            event_loss = F.cross_entropy(event_logits, next_event)
            time_loss = F.binary_cross_entropy(time_pred, time_hist.float())  # expect: bce-on-logits
            loss = event_loss + time_loss
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            yield event_loss.item(), time_loss.item()


if __name__ == "__main__":
    w = Worker(EventModel())
    data = [(torch.randint(0, 32, (16, 10)), torch.randint(0, 32, (16,)), torch.randint(0, 2, (16, 24)))
            for _ in range(3)]
    for stats in w.train(data):
        print(stats)
