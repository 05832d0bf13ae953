import io
import os
import torch


class ModelDimensions:
    def __init__(self, **kw):
        self.__dict__.update(kw)


def load_model(name_or_path: str, device=None, download_root=None, in_memory=False, build_fn=None):
    if device is None:
        device = "cuda" if torch.cuda.is_available() else "cpu"
    if download_root is None:
        download_root = os.path.join(os.path.expanduser("~"), ".cache", "asr")
    checkpoint_file = name_or_path if os.path.isfile(name_or_path) else os.path.join(download_root, name_or_path + ".pt")
    with (io.BytesIO(open(checkpoint_file, "rb").read()) if in_memory else open(checkpoint_file, "rb")) as fp:
        checkpoint = torch.load(fp, map_location=device)  # expect: torch-load-unsafe
    dims = ModelDimensions(**checkpoint["dims"])
    model = build_fn(dims)
    model.load_state_dict(checkpoint["model_state_dict"])
    model.eval()
    return model.to(device)


@torch.no_grad()
def transcribe_batch(model, mel, tokenizer, max_len=224):
    tokens = torch.full((mel.size(0), 1), tokenizer.sot, device=mel.device)
    audio_features = model.encoder(mel)
    for _ in range(max_len):
        logits = model.decoder(tokens, audio_features)[:, -1]
        next_tok = logits.argmax(dim=-1, keepdim=True)
        tokens = torch.cat([tokens, next_tok], dim=-1)
        if (next_tok == tokenizer.eot).all():
            break
    return tokens
