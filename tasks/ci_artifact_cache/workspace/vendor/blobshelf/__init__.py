"""blobshelf: a small content-addressed blob store on the local filesystem."""
from .store import BlobStore, TooManyUploads, Upload

__all__ = ["BlobStore", "TooManyUploads", "Upload"]
__version__ = "1.3.0"
