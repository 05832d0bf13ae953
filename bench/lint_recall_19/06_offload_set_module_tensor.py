"""Load a large checkpoint shard by shard into a model created on the meta
device, then fine-tune the last blocks on one GPU."""
import torch
import torch.nn as nn
from safetensors.torch import load_file


def set_module_tensor_to_device(module, tensor_name, device, value=None, dtype=None):
    if "." in tensor_name:
        splits = tensor_name.split(".")
        for split in splits[:-1]:
            module = getattr(module, split)
        tensor_name = splits[-1]
    is_buffer = tensor_name in module._buffers
    old_value = getattr(module, tensor_name)
    with torch.no_grad():
        if value is None:
            new_value = old_value.to(device)
        else:
            new_value = value
            if dtype is not None and new_value.is_floating_point():
                new_value = new_value.to(dtype)
            if new_value.device != torch.device(device):
                new_value.to(device)  # expect: tensor-op-result-discarded
        if is_buffer:
            module._buffers[tensor_name] = new_value
        else:
            module._parameters[tensor_name] = nn.Parameter(new_value, requires_grad=old_value.requires_grad)


def load_sharded(model, shard_files, device="cuda:0", dtype=torch.bfloat16):
    for path in shard_files:
        state = load_file(path)
        for name, tensor in state.items():
            set_module_tensor_to_device(model, name, device, value=tensor, dtype=dtype)
    return model


def finetune_last_blocks(model, loader, trainable_prefix="layers.31.", lr=1e-5, steps=200):
    params = []
    for name, p in model.named_parameters():
        p.requires_grad_(name.startswith(trainable_prefix))
        if p.requires_grad:
            params.append(p)
    optimizer = torch.optim.AdamW(params, lr=lr)
    model.train()
    for step, batch in zip(range(steps), loader):
        ids = batch["input_ids"].to("cuda:0")
        logits = model(ids)
        loss = nn.functional.cross_entropy(logits[:, :-1].flatten(0, 1).float(), ids[:, 1:].flatten())
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
