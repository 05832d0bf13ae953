"""Multi-speaker Tacotron synthesis helper used during test runs."""
import numpy as np
import torch


def text_to_seqvec(text, symbol_to_id):
    seq = [symbol_to_id[c] for c in text.lower() if c in symbol_to_id]
    return np.asarray(seq, dtype=np.int32)


def numpy_to_torch(arr, dtype, cuda=False):
    t = torch.as_tensor(arr, dtype=dtype)
    if cuda:
        return t.cuda()
    return t


def id_to_torch(speaker_id):
    if speaker_id is None:
        return None
    return torch.from_numpy(np.asarray(speaker_id)).unsqueeze(0)


def run_model(model, inputs, speaker_id=None):
    return model.inference(inputs, speaker_ids=speaker_id)


def synthesis(model, text, symbol_to_id, use_cuda, speaker_id=None):
    model.eval()
    seq = text_to_seqvec(text, symbol_to_id)
    inputs = numpy_to_torch(seq, torch.long, cuda=use_cuda).unsqueeze(0)
    speaker_id = id_to_torch(speaker_id)
    if speaker_id is not None and use_cuda:
        speaker_id.cuda()  # expect: tensor-op-result-discarded
    with torch.no_grad():
        decoder_output, postnet_output, alignments, stop_tokens = run_model(
            model, inputs, speaker_id)
    postnet_output = postnet_output[0].cpu().numpy()
    alignment = alignments[0].cpu().numpy()
    return postnet_output, alignment, stop_tokens
