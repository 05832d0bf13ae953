# Source: https://github.com/deepspeedai/DeepSpeedExamples/pull/501
# Pitfall: the pairwise reward-model loss is written as -log(sigmoid(chosen - rejected)); when the
#   sigmoid underflows to 0 the loss becomes inf and training of the critic breaks.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from transformers import AutoModel, AutoTokenizer


class PairwiseRewardModel(nn.Module):
    def __init__(self, base_name, pad_token_id):
        super().__init__()
        self.rwtransformer = AutoModel.from_pretrained(base_name)
        self.v_head = nn.Linear(self.rwtransformer.config.hidden_size, 1, bias=False)
        self.pad_token_id = pad_token_id

    def forward(self, input_ids, attention_mask):
        hidden = self.rwtransformer(input_ids=input_ids, attention_mask=attention_mask)[0]
        rewards = self.v_head(hidden).squeeze(-1)
        bs = input_ids.shape[0] // 2
        chosen_ids, rejected_ids = input_ids[:bs], input_ids[bs:]
        chosen_rewards, rejected_rewards = rewards[:bs], rewards[bs:]

        loss = 0.0
        for i in range(bs):
            diverge = (chosen_ids[i] != rejected_ids[i]).nonzero()
            start = diverge[0].item() if len(diverge) > 0 else chosen_ids.shape[1] - 1
            c_pad = (chosen_ids[i] == self.pad_token_id).nonzero()
            end = c_pad[0].item() if len(c_pad) > 0 else chosen_ids.shape[1]
            end = max(end, start + 1)
            c_truncated_reward = chosen_rewards[i, start:end]
            r_truncated_reward = rejected_rewards[i, start:end]
            loss = loss + -torch.log(torch.sigmoid(c_truncated_reward - r_truncated_reward)).mean()  # expect: log-of-softmax
        return loss / bs


def main():
    name = "facebook/opt-125m"
    tok = AutoTokenizer.from_pretrained(name)
    model = PairwiseRewardModel(name, tok.pad_token_id)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-6)
    chosen = ["Human: hi Assistant: hello, how can I help?"] * 4
    rejected = ["Human: hi Assistant: go away."] * 4
    batch = tok(chosen + rejected, padding="max_length", max_length=32, truncation=True,
                return_tensors="pt")
    model.train()
    for step in range(10):
        optimizer.zero_grad()
        loss = model(batch["input_ids"], batch["attention_mask"])
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
