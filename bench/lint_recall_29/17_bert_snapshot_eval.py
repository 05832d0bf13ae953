"""Evaluate the best BERT snapshot on dev and test after training."""
import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


def evaluate_split(model, dataset, device, batch_size=32):
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=False)
    model.eval()
    correct, total, loss_sum = 0, 0, 0.0
    with torch.no_grad():
        for input_ids, input_mask, segment_ids, labels in loader:
            input_ids, input_mask = input_ids.to(device), input_mask.to(device)
            segment_ids, labels = segment_ids.to(device), labels.to(device)
            logits = model(input_ids, attention_mask=input_mask, token_type_ids=segment_ids)[0]
            loss_sum += F.cross_entropy(logits, labels, reduction="sum").item()
            correct += (logits.argmax(dim=-1) == labels).sum().item()
            total += labels.numel()
    return correct / total, loss_sum / total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--snapshot-path", required=True)
    parser.add_argument("--device", default="cuda")
    args = parser.parse_args()

    dev_set = torch.utils.data.TensorDataset(*[torch.zeros(8, 16, dtype=torch.long)] * 4)
    test_set = dev_set
    model = torch.load(args.snapshot_path)  # expect: torch-load-unsafe
    model = model.to(args.device)
    for name, split in (("dev", dev_set), ("test", test_set)):
        acc, loss = evaluate_split(model, split, args.device)
        print(f"{name}: acc={acc:.4f} loss={loss:.4f}")


if __name__ == "__main__":
    main()
