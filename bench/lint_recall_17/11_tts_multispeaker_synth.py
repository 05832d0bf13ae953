"""Test-sentence synthesis during multi-speaker TTS training."""
import numpy as np
import torch


def text_to_sequence_tensor(text, symbols, use_cuda):
    seq = np.asarray([symbols.index(c) for c in text.lower() if c in symbols], dtype=np.int64)
    inputs = torch.from_numpy(seq).unsqueeze(0)
    if use_cuda:
        inputs = inputs.cuda()
    return inputs


def synthesis(model, text, symbols, use_cuda, speaker_id=None):
    inputs = text_to_sequence_tensor(text, symbols, use_cuda)
    if speaker_id is not None:
        speaker_id = torch.LongTensor([speaker_id])
        if use_cuda:
            speaker_id.cuda()  # expect: tensor-op-result-discarded
    model.eval()
    with torch.no_grad():
        decoder_out, postnet_out, alignments, stop_tokens = model.inference(inputs, speaker_ids=speaker_id)
    model.train()
    return postnet_out[0].cpu().numpy(), alignments[0].cpu().numpy()


def run_test_sentences(model, sentences, symbols, speakers, use_cuda, logger, step):
    for idx, sentence in enumerate(sentences):
        for sid in speakers:
            spec, align = synthesis(model, sentence, symbols, use_cuda, speaker_id=sid)
            logger.add_image(f"test/{idx}-{sid}/spec", spec, step)
            logger.add_image(f"test/{idx}-{sid}/align", align, step)
