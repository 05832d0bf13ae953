# Source: https://github.com/OpenRLHF/OpenRLHF/commit/f53571de43a4524644e75c9c472bbc69ac7b72c2
# Pitfall: the experience maker switches the actor to eval mode to sample rollouts and never switches it back,
#   so every PPO update that follows trains the actor with dropout disabled (the fix resets train mode).
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def masked_mean(x, mask, dim=-1):
    return (x * mask).sum(dim) / mask.sum(dim).clamp(min=1)


class RolloutMaker:
    def __init__(self, actor, ref_model, reward_fn, kl_coef=0.05):
        self.actor = actor
        self.ref_model = ref_model
        self.reward_fn = reward_fn
        self.kl_coef = kl_coef

    @torch.no_grad()
    def make_experience(self, prompts, attention_mask, max_new_tokens=128):
        self.actor.eval()  # expect: train-mode-not-restored
        self.ref_model.eval()
        seqs = self.actor.generate(prompts, attention_mask=attention_mask, max_new_tokens=max_new_tokens, do_sample=True)
        action_mask = (seqs[:, prompts.size(1):] != 0).float()
        logp = self.actor.log_probs(seqs, action_mask)
        ref_logp = self.ref_model.log_probs(seqs, action_mask)
        kl = logp - ref_logp
        reward = self.reward_fn(seqs) - self.kl_coef * masked_mean(kl, action_mask)
        return {"seqs": seqs, "logp": logp, "mask": action_mask, "reward": reward}


def ppo_update(actor, optimizer, exp, clip_eps=0.2, epochs=2):
    adv = (exp["reward"] - exp["reward"].mean()) / (exp["reward"].std() + 1e-6)
    for _ in range(epochs):
        new_logp = actor.log_probs(exp["seqs"], exp["mask"])
        ratio = torch.exp(new_logp - exp["logp"])
        surr = torch.min(ratio * adv[:, None], ratio.clamp(1 - clip_eps, 1 + clip_eps) * adv[:, None])
        loss = -masked_mean(surr, exp["mask"]).mean()
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(actor.parameters(), 1.0)
        optimizer.step()
    return loss.item()


def train(actor, ref_model, reward_fn, prompt_loader, optimizer, episodes=10):
    maker = RolloutMaker(actor, ref_model, reward_fn)
    actor.train()
    for episode in range(episodes):
        for prompts, attn in prompt_loader:
            exp = maker.make_experience(prompts, attn)
            loss = ppo_update(actor, optimizer, exp)
        print(f"episode {episode}: ppo loss {loss:.4f}")
