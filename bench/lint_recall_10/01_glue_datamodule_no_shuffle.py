# Source: https://github.com/Lightning-AI/tutorials/commit/14535ff0e353d3cafcf54ac42856701108284e56
# Pitfall: the LightningDataModule's train_dataloader builds a DataLoader without shuffle=True,
#   so every epoch sees the sentence pairs in the same file order; the fix reports a large GLUE accuracy drop.
# Reproduced in our own words, not the original code.
import torch
import lightning as L
from torch.utils.data import DataLoader
from datasets import load_dataset
from transformers import AutoTokenizer


class PairClassificationData(L.LightningDataModule):
    def __init__(self, checkpoint="distilroberta-base", task="mrpc", train_bs=32, eval_bs=64):
        super().__init__()
        self.checkpoint = checkpoint
        self.task = task
        self.train_bs = train_bs
        self.eval_bs = eval_bs
        self.tokenizer = AutoTokenizer.from_pretrained(checkpoint, use_fast=True)

    def _encode(self, batch):
        enc = self.tokenizer(batch["sentence1"], batch["sentence2"], max_length=128,
                             padding="max_length", truncation=True)
        enc["labels"] = batch["label"]
        return enc

    def setup(self, stage=None):
        raw = load_dataset("glue", self.task)
        self.splits = {}
        for name, part in raw.items():
            part = part.map(self._encode, batched=True, remove_columns=part.column_names)
            part.set_format(type="torch")
            self.splits[name] = part

    def train_dataloader(self):
        return DataLoader(self.splits["train"], batch_size=self.train_bs, num_workers=2)  # expect: train-loader-not-shuffled

    def val_dataloader(self):
        return DataLoader(self.splits["validation"], batch_size=self.eval_bs, num_workers=2)


if __name__ == "__main__":
    dm = PairClassificationData()
    dm.setup("fit")
    first = next(iter(dm.train_dataloader()))
    print({k: v.shape for k, v in first.items()})
