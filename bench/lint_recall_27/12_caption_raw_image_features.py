"""Loader that turns a folder of raw images into ResNet fc/att features for a captioning model."""
import os
import numpy as np
import torch
import torchvision.transforms as T
from PIL import Image
from torch.autograd import Variable

preprocess = T.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])


class DataLoaderRaw:
    def __init__(self, folder_path, my_resnet, batch_size=10, att_size=14):
        self.folder_path = folder_path
        self.my_resnet = my_resnet
        self.batch_size = batch_size
        self.att_size = att_size
        self.files = sorted(f for f in os.listdir(folder_path) if f.lower().endswith((".jpg", ".png", ".jpeg")))
        self.iterator = 0

    def __len__(self):
        return len(self.files)

    def get_batch(self):
        fc_batch = np.zeros((self.batch_size, 2048), dtype="float32")
        att_batch = np.zeros((self.batch_size, self.att_size, self.att_size, 2048), dtype="float32")
        infos = []
        for i in range(self.batch_size):
            ri = self.iterator
            self.iterator = (self.iterator + 1) % len(self.files)
            path = os.path.join(self.folder_path, self.files[ri])
            img = np.asarray(Image.open(path).convert("RGB").resize((448, 448)))
            img = img.astype("float32") / 255.0
            img = torch.from_numpy(img.transpose([2, 0, 1])).cuda()
            img = Variable(preprocess(img), volatile=True)  # expect: volatile-variable
            tmp_fc, tmp_att = self.my_resnet(img)
            fc_batch[i] = tmp_fc.data.cpu().float().numpy()
            att_batch[i] = tmp_att.data.cpu().float().numpy()
            infos.append({"id": ri, "file_path": path})
        return {"fc_feats": fc_batch, "att_feats": att_batch.reshape(self.batch_size, -1, 2048), "infos": infos}


def caption_folder(model, loader, vocab, n_batches=5):
    model.eval()
    results = []
    with torch.no_grad():
        for _ in range(n_batches):
            data = loader.get_batch()
            fc = torch.from_numpy(data["fc_feats"]).cuda()
            att = torch.from_numpy(data["att_feats"]).cuda()
            seq = model.sample(fc, att)
            for info, s in zip(data["infos"], seq.tolist()):
                words = [vocab[t] for t in s if t != 0]
                results.append({"image": info["file_path"], "caption": " ".join(words)})
    return results
