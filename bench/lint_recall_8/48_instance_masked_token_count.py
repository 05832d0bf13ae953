# Source: https://github.com/allenai/OLMo-core/pull/452
# Pitfall: the summed token loss is divided by the number of unmasked label tokens on this rank; when
# every instance on the rank is masked out the count is 0 and the loss (and all gradients) become NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F

IGNORE = -100


def mask_instances(labels, drop_instance):
    labels = labels.clone()
    labels[drop_instance] = IGNORE
    return labels


class CausalLMStep:
    def __init__(self, model, optimizer, max_grad_norm=1.0):
        self.model = model
        self.optimizer = optimizer
        self.max_grad_norm = max_grad_norm

    def loss_for(self, input_ids, labels):
        logits = self.model(input_ids)
        flat_logits = logits[:, :-1].reshape(-1, logits.size(-1))
        flat_labels = labels[:, 1:].reshape(-1)
        summed = F.cross_entropy(flat_logits, flat_labels, ignore_index=IGNORE, reduction="sum")
        n_tokens = (flat_labels != IGNORE).sum()
        return summed / n_tokens  # expect: unguarded-zero

    def __call__(self, batch):
        self.model.train()
        labels = mask_instances(batch["labels"], batch["instance_mask"])
        self.optimizer.zero_grad(set_to_none=True)
        loss = self.loss_for(batch["input_ids"], labels)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)
        self.optimizer.step()
        return {
            "train/ce_loss": loss.item(),
            "train/masked_instances": batch["instance_mask"].float().mean().item(),
        }
