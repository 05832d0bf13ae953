"""Auxiliary heads of a protein-structure trainer: experimentally-resolved and per-residue confidence losses."""
import torch
import torch.nn.functional as F


def sigmoid_cross_entropy(logits, labels):
    log_p = torch.log(torch.sigmoid(logits))  # expect: log-of-softmax
    log_not_p = torch.log(torch.sigmoid(-logits))  # expect: log-of-softmax
    loss = -labels * log_p - (1 - labels) * log_not_p
    return loss


def experimentally_resolved_loss(logits, atom37_atom_exists, all_atom_mask, resolution,
                                 min_resolution=0.1, max_resolution=3.0, eps=1e-8):
    errors = sigmoid_cross_entropy(logits, all_atom_mask)
    loss = torch.sum(errors * atom37_atom_exists, dim=-1)
    loss = loss / (eps + torch.sum(atom37_atom_exists, dim=(-1, -2)).unsqueeze(-1))
    loss = torch.sum(loss, dim=-1)
    loss = loss * ((resolution >= min_resolution) & (resolution <= max_resolution))
    return torch.mean(loss)


def plddt_loss(logits, true_bins, mask, eps=1e-10):
    errors = F.cross_entropy(logits.transpose(1, 2), true_bins, reduction="none")
    return torch.sum(errors * mask) / (eps + torch.sum(mask))


def training_step(model, batch, optimizer, weights=(0.01, 0.3)):
    model.train()
    out = model(batch)
    loss = weights[0] * experimentally_resolved_loss(out["experimentally_resolved_logits"], batch["atom37_atom_exists"],
                                                     batch["all_atom_mask"], batch["resolution"])
    loss = loss + weights[1] * plddt_loss(out["lddt_logits"], batch["lddt_bins"], batch["residue_mask"])
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
    optimizer.step()
    return loss.item()
