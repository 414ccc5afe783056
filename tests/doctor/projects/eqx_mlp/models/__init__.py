from models.data import batches, make_blobs
from models.mlp import Classifier

__all__ = ["Classifier", "batches", "make_blobs"]
