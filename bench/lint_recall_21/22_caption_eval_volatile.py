"""Evaluate an attention captioning model on a split: language-model loss plus sampled captions."""
import numpy as np
import torch


def decode_sequence(ix_to_word, seq):
    out = []
    for row in seq.cpu().numpy():
        words = []
        for ix in row:
            if ix == 0:
                break
            words.append(ix_to_word[str(ix)])
        out.append(" ".join(words))
    return out


class LanguageModelCriterion(torch.nn.Module):
    def forward(self, logprobs, target, mask):
        target = target[:, : logprobs.size(1)]
        mask = mask[:, : logprobs.size(1)].float()
        output = -logprobs.gather(2, target.unsqueeze(2)).squeeze(2) * mask
        return output.sum() / mask.sum()


def eval_split(model, crit, loader, eval_kwargs=None):
    eval_kwargs = eval_kwargs or {}
    split = eval_kwargs.get("split", "val")
    num_images = eval_kwargs.get("num_images", 5000)
    model.eval()
    loader.reset_iterator(split)

    n, loss_sum, loss_evals = 0, 0.0, 0
    predictions = []
    while True:
        data = loader.get_batch(split)
        n += loader.batch_size
        if data.get("labels") is not None:
            tmp = [data["fc_feats"], data["att_feats"], data["labels"], data["masks"], data["att_masks"]]
            tmp = [torch.autograd.Variable(torch.from_numpy(_), volatile=True).cuda() for _ in tmp]  # expect: volatile-variable
            fc_feats, att_feats, labels, masks, att_masks = tmp
            loss = crit(model(fc_feats, att_feats, labels, att_masks), labels[:, 1:], masks[:, 1:]).item()  # expect: validation-in-train-mode
            loss_sum += loss
            loss_evals += 1

        idx = np.arange(loader.batch_size) * loader.seq_per_img
        with torch.no_grad():
            fc = torch.from_numpy(data["fc_feats"][idx]).cuda()
            att = torch.from_numpy(data["att_feats"][idx]).cuda()
            att_masks = torch.from_numpy(data["att_masks"][idx]).cuda()
            seq = model(fc, att, att_masks, opt=eval_kwargs, mode="sample")[0]
        for k, sent in enumerate(decode_sequence(loader.get_vocab(), seq)):
            predictions.append({"image_id": data["infos"][k]["id"], "caption": sent})

        if data["bounds"]["wrapped"] or n >= num_images:
            break

    model.train()
    return loss_sum / max(loss_evals, 1), predictions
