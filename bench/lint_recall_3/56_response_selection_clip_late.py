# Source: https://github.com/taesunwhang/UMS-ResSel/issues/3
# Pitfall: In BERT post-training the gradient clipping call sits after optimizer.step(); the step has
# already used the unclipped gradients, so max_gradient_norm never takes effect.
# Reproduced in our own words, not the original code.
import torch


def post_train(model, loader, optimizer, scheduler, hparams, device):
    model.train()
    for step, batch in enumerate(loader):
        batch = {k: v.to(device) for k, v in batch.items()}
        out = model(**batch)
        loss = out.loss / hparams.virtual_batch_size
        loss.backward()
        if (step + 1) % hparams.virtual_batch_size == 0:
            optimizer.step()
            torch.nn.utils.clip_grad_norm_(model.parameters(), hparams.max_gradient_norm)  # expect: clip-after-step
            scheduler.step()
            optimizer.zero_grad()
    return model
