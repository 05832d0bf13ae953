"""Data loading for Tacotron2 training (single-GPU or distributed)."""
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


class TextMelCollate:
    def __init__(self, n_frames_per_step=1):
        self.n_frames_per_step = n_frames_per_step

    def __call__(self, batch):
        lengths, ids = torch.sort(torch.LongTensor([len(x[0]) for x in batch]), descending=True)
        max_in = lengths[0].item()
        text = torch.zeros(len(batch), max_in, dtype=torch.long)
        for i, j in enumerate(ids):
            text[i, : batch[j][0].size(0)] = batch[j][0]
        n_mels = batch[0][1].size(0)
        max_out = max(x[1].size(1) for x in batch)
        if max_out % self.n_frames_per_step:
            max_out += self.n_frames_per_step - max_out % self.n_frames_per_step
        mel = torch.zeros(len(batch), n_mels, max_out)
        gate = torch.zeros(len(batch), max_out)
        out_lengths = torch.LongTensor(len(batch))
        for i, j in enumerate(ids):
            m = batch[j][1]
            mel[i, :, : m.size(1)] = m
            gate[i, m.size(1) - 1:] = 1
            out_lengths[i] = m.size(1)
        return text, lengths, mel, gate, out_lengths


def prepare_dataloaders(trainset, valset, batch_size, n_frames_per_step, distributed_run):
    collate_fn = TextMelCollate(n_frames_per_step)
    train_sampler = DistributedSampler(trainset) if distributed_run else None
    train_loader = DataLoader(trainset, num_workers=1, sampler=train_sampler,  # expect: train-loader-not-shuffled
                              batch_size=batch_size, pin_memory=False,
                              drop_last=True, collate_fn=collate_fn)
    val_loader = DataLoader(valset, num_workers=1, batch_size=batch_size,
                            pin_memory=False, collate_fn=collate_fn)
    return train_loader, val_loader, collate_fn


def train(model, trainset, valset, hparams):
    distributed = dist.is_available() and dist.is_initialized()
    train_loader, val_loader, _ = prepare_dataloaders(
        trainset, valset, hparams.batch_size, hparams.n_frames_per_step, distributed
    )
    optimizer = torch.optim.Adam(model.parameters(), lr=hparams.learning_rate, weight_decay=hparams.weight_decay)
    for epoch in range(hparams.epochs):
        if distributed:
            train_loader.sampler.set_epoch(epoch)
        model.train()
        for text, in_lens, mel, gate, out_lens in train_loader:
            optimizer.zero_grad()
            mel_out, mel_post, gate_out = model(text, in_lens, mel, out_lens)
            loss = (torch.nn.functional.mse_loss(mel_out, mel) + torch.nn.functional.mse_loss(mel_post, mel)
                    + torch.nn.functional.binary_cross_entropy_with_logits(gate_out, gate))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), hparams.grad_clip_thresh)
            optimizer.step()
