# Source: https://github.com/agokrani/distillKitPlus/issues/5
# Pitfall: distillation loss backpropagated per micro-batch without dividing by the number of
# accumulation steps; the logged loss grew with gradient_accumulation_steps.
# Reproduced in our own words, not the original code.
import torch.nn.functional as F


def distill(student, teacher_logits_fn, loader, optimizer, gradient_accumulation_steps=8, T=2.0):
    for i, batch in enumerate(loader):
        s = student(batch["input_ids"]).logits
        t = teacher_logits_fn(batch["input_ids"])
        loss = F.kl_div(F.log_softmax(s / T, -1), F.softmax(t / T, -1), reduction="batchmean") * T * T
        loss.backward()  # expect: accumulation-not-averaged
        if (i + 1) % gradient_accumulation_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
