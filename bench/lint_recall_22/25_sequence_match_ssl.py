import torch
import torch.nn.functional as F


def consistency_ce(logits, targets, mask):
    return (F.cross_entropy(logits, targets, reduction="none") * mask).mean()


class SequenceMatch:
    """Semi-supervised step: weak / medium / strong views of each unlabeled image."""

    def __init__(self, model, optimizer, num_classes, T=0.5, p_cutoff=0.95, lambda_u=1.0):
        self.model = model
        self.optimizer = optimizer
        self.num_classes = num_classes
        self.T = T
        self.p_cutoff = p_cutoff
        self.lambda_u = lambda_u

    def kl_term(self, student_logits, teacher_logits, mask):
        kl = F.kl_div(F.softmax(student_logits, dim=-1).log(),  # expect: log-of-softmax
                      F.softmax(teacher_logits / self.T, dim=-1).detach(),
                      reduction="none").sum(dim=1)
        return (kl * mask).mean()

    def train_step(self, x_lb, y_lb, x_ulb_w, x_ulb_m, x_ulb_s):
        self.model.train()
        n_lb = x_lb.size(0)
        logits = self.model(torch.cat([x_lb, x_ulb_w, x_ulb_m, x_ulb_s]))
        logits_lb = logits[:n_lb]
        logits_w, logits_m, logits_s = logits[n_lb:].chunk(3)
        sup_loss = F.cross_entropy(logits_lb, y_lb)

        with torch.no_grad():
            probs_w = torch.softmax(logits_w.detach(), dim=-1)
            max_probs, pseudo = probs_w.max(dim=-1)
            mask = max_probs.ge(self.p_cutoff).float()

        unsup = consistency_ce(logits_s, pseudo, mask)
        unsup_mw = self.kl_term(logits_m, logits_w.detach(), mask)
        unsup_sm = self.kl_term(logits_s, logits_m.detach(), mask)
        unsup_sw = self.kl_term(logits_s, logits_w.detach(), mask)
        total = sup_loss + self.lambda_u * (unsup + unsup_mw + unsup_sm + unsup_sw)

        self.optimizer.zero_grad()
        total.backward()
        self.optimizer.step()
        return {"sup_loss": sup_loss.item(), "unsup_loss": unsup.item(),
                "mask_ratio": mask.mean().item(), "total": total.item()}
