# Source: https://github.com/huggingface/transformers/issues/340
# Pitfall: the GPT double-heads fine-tuning loop steps the optimizer after every backward() but
#   never zeroes the gradients, so each update uses the sum of all previous batches' gradients.
# Reproduced in our own words, not the original code.
import argparse

import torch
from torch.utils.data import DataLoader, RandomSampler, TensorDataset
from tqdm import tqdm, trange
from transformers import OpenAIGPTDoubleHeadsModel, get_linear_schedule_with_warmup


def make_dataset(n=256, n_choices=2, seq_len=64, vocab=40478):
    input_ids = torch.randint(0, vocab, (n, n_choices, seq_len))
    mc_token_ids = torch.full((n, n_choices), seq_len - 1, dtype=torch.long)
    lm_labels = input_ids.clone()
    mc_labels = torch.randint(0, n_choices, (n,))
    return TensorDataset(input_ids, mc_token_ids, lm_labels, mc_labels)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_train_epochs", type=int, default=3)
    parser.add_argument("--train_batch_size", type=int, default=8)
    parser.add_argument("--learning_rate", type=float, default=6.25e-5)
    parser.add_argument("--lm_coef", type=float, default=0.9)
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = OpenAIGPTDoubleHeadsModel.from_pretrained("openai-gpt").to(device)
    train_data = make_dataset()
    train_dataloader = DataLoader(train_data, sampler=RandomSampler(train_data),
                                  batch_size=args.train_batch_size)
    total = len(train_dataloader) * args.num_train_epochs
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate, weight_decay=0.01)
    scheduler = get_linear_schedule_with_warmup(optimizer, int(0.002 * total), total)

    model.train()
    exp_average_loss = None
    for _ in trange(args.num_train_epochs, desc="Epoch"):
        tqdm_bar = tqdm(train_dataloader, desc="Training")
        for step, batch in enumerate(tqdm_bar):
            input_ids, mc_token_ids, lm_labels, mc_labels = (t.to(device) for t in batch)
            out = model(input_ids, mc_token_ids=mc_token_ids, labels=lm_labels, mc_labels=mc_labels)
            loss = args.lm_coef * out.loss + out.mc_loss
            loss.backward()
            optimizer.step()  # expect: gradients-never-cleared
            scheduler.step()
            value = loss.item()
            exp_average_loss = value if exp_average_loss is None else 0.7 * exp_average_loss + 0.3 * value
            tqdm_bar.desc = f"Training loss: {exp_average_loss:.2e} lr: {scheduler.get_last_lr()[0]:.2e}"


if __name__ == "__main__":
    main()
