"""Validate a converted checkpoint against a freshly built model before resuming
fine-tuning from it: report missing / unexpected keys and shape mismatches."""
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import List

import torch


@dataclass
class CheckpointValidationResult:
    is_valid: bool
    missing_keys: List[str] = field(default_factory=list)
    unexpected_keys: List[str] = field(default_factory=list)
    shape_mismatches: List[str] = field(default_factory=list)
    errors: List[str] = field(default_factory=list)

    def summary(self) -> str:
        lines = [f"valid: {self.is_valid}"]
        for title, items in (("missing", self.missing_keys), ("unexpected", self.unexpected_keys),
                             ("shape mismatch", self.shape_mismatches), ("error", self.errors)):
            lines += [f"  {title}: {item}" for item in items]
        return "\n".join(lines)


def validate_checkpoint(model: torch.nn.Module, checkpoint_path: Path, verbose: bool = True):
    errors: List[str] = []
    if not checkpoint_path.is_file():
        result = CheckpointValidationResult(False, errors=[f"not found: {checkpoint_path}"])
        if verbose:
            print(result.summary(), file=sys.stderr)
        return result, None

    state_dict = torch.load(str(checkpoint_path), mmap=True, map_location="cpu")  # expect: torch-load-unsafe
    if isinstance(state_dict, dict) and "model" in state_dict:
        state_dict = state_dict["model"]

    expected = model.state_dict()
    missing = sorted(set(expected) - set(state_dict))
    unexpected = sorted(set(state_dict) - set(expected))
    mismatched = [f"{k}: {tuple(state_dict[k].shape)} vs {tuple(v.shape)}"
                  for k, v in expected.items() if k in state_dict and state_dict[k].shape != v.shape]
    result = CheckpointValidationResult(not (missing or unexpected or mismatched or errors),
                                        missing, unexpected, mismatched, errors)
    if verbose:
        print(result.summary(), file=sys.stderr)
    return result, state_dict


def resume_finetune(model, checkpoint_path, loader, lr=3e-4, steps=500):
    result, state_dict = validate_checkpoint(model, Path(checkpoint_path))
    if not result.is_valid:
        raise SystemExit(1)
    model.load_state_dict(state_dict)
    model.cuda().train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    for step, (x, y) in zip(range(steps), loader):
        x, y = x.cuda(), y.cuda()
        logits = model(x)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), y.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
