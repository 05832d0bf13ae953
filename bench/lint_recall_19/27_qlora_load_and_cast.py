"""Prepare a quantized causal LM for LoRA fine-tuning: swap linears for 4-bit
layers, cast the remaining floating-point weights, then train the adapters."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def replace_linears(model, make_quant_linear, skip=("lm_head",)):
    for name, module in model.named_children():
        if isinstance(module, nn.Linear) and name not in skip:
            setattr(model, name, make_quant_linear(module))
        else:
            replace_linears(module, make_quant_linear, skip)
    return model


def load_and_quantize_model(model, make_quant_linear, torch_dtype=torch.bfloat16,
                            keep_in_fp32_modules=("norm", "lm_head")):
    model = replace_linears(model, make_quant_linear)
    for name, param in model.named_parameters():
        if any(keep in name for keep in keep_in_fp32_modules):
            param.data = param.data.to(torch.float32)
        elif torch.is_floating_point(param):
            param.to(torch_dtype)  # expect: tensor-op-result-discarded
    return model.cuda()


class LoRA(nn.Module):
    def __init__(self, base, r=16, alpha=32):
        super().__init__()
        self.base = base
        self.A = nn.Parameter(torch.randn(r, base.in_features) * 0.01)
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.A.t() @ self.B.t()) * self.scale


def finetune(model, loader, steps=1000, lr=2e-4):
    for p in model.parameters():
        p.requires_grad_(False)
    lora_params = [p for m in model.modules() if isinstance(m, LoRA) for p in (m.A, m.B)]
    for p in lora_params:
        p.requires_grad_(True)
    optimizer = torch.optim.AdamW(lora_params, lr=lr)
    model.train()
    for step, batch in zip(range(steps), loader):
        input_ids = batch["input_ids"].cuda()
        logits = model(input_ids)
        loss = F.cross_entropy(logits[:, :-1].flatten(0, 1).float(), input_ids[:, 1:].flatten())
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            print(step, loss.item())
