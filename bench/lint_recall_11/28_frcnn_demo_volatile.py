"""Faster R-CNN demo: run a trained detector over a folder of images and draw the detections."""
import glob
import os

import cv2
import numpy as np
import torch
from torch.autograd import Variable


def get_image_blob(im, target_size=600, pixel_means=np.array([[[102.98, 115.95, 122.77]]])):
    im_orig = im.astype(np.float32, copy=True) - pixel_means
    scale = float(target_size) / float(min(im_orig.shape[0:2]))
    im_resized = cv2.resize(im_orig, None, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    return im_resized[np.newaxis, ...], np.array([scale])


def run_demo(fasterRCNN, image_dir, class_names, thresh=0.05, device="cuda"):
    fasterRCNN.to(device)
    fasterRCNN.eval()
    for im_file in sorted(glob.glob(os.path.join(image_dir, "*.jpg"))):
        im = cv2.imread(im_file)
        blobs, im_scales = get_image_blob(im)
        im_info_np = np.array([[blobs.shape[1], blobs.shape[2], im_scales[0]]], dtype=np.float32)
        im_data_pt = torch.from_numpy(blobs).permute(0, 3, 1, 2).to(device)
        im_info_pt = torch.from_numpy(im_info_np).to(device)
        im_data = Variable(im_data_pt, volatile=True)  # expect: volatile-variable
        rois, cls_prob, bbox_pred = fasterRCNN(im_data, im_info_pt)
        scores = cls_prob.data[0]
        boxes = rois.data[0, :, 1:5] / im_scales[0]
        for j, name in enumerate(class_names[1:], start=1):
            inds = torch.nonzero(scores[:, j] > thresh).view(-1)
            for k in inds.tolist():
                x1, y1, x2, y2 = boxes[k].int().tolist()
                cv2.rectangle(im, (x1, y1), (x2, y2), (0, 204, 0), 2)
                cv2.putText(im, f"{name}: {scores[k, j]:.3f}", (x1, y1 + 15), cv2.FONT_HERSHEY_PLAIN, 1.0, (0, 0, 255))
        cv2.imwrite(im_file[:-4] + "_det.jpg", im)
