# Source: https://github.com/ant-research/EasyTemporalPointProcess/issues/54
# Pitfall: the runner config silently drops the user's shuffle=True, so the training event sequences are fed
#   in the same stored order every epoch, which biases SGD toward whatever the file order happens to be.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class EventSeqDataset(Dataset):
    def __init__(self, sequences):
        self.sequences = sequences

    def __len__(self):
        return len(self.sequences)

    def __getitem__(self, idx):
        times, marks = self.sequences[idx]
        return torch.as_tensor(times, dtype=torch.float32), torch.as_tensor(marks, dtype=torch.long)


def pad_batch(batch):
    times, marks = zip(*batch)
    times = nn.utils.rnn.pad_sequence(times, batch_first=True)
    marks = nn.utils.rnn.pad_sequence(marks, batch_first=True, padding_value=-1)
    return times, marks


def get_loaders(train_seqs, valid_seqs, batch_size=64):
    train_loader = DataLoader(EventSeqDataset(train_seqs), batch_size=batch_size, collate_fn=pad_batch)  # expect: train-loader-not-shuffled
    valid_loader = DataLoader(EventSeqDataset(valid_seqs), batch_size=batch_size, shuffle=False, collate_fn=pad_batch)
    return train_loader, valid_loader
