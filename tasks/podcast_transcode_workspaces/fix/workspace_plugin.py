"""Each transcode job gets a private scratch folder under the farm's work root; finished files move
to the publish folder and the scratch folder is removed."""
import os
import shutil
import tempfile


class ScratchFolders:
    def __init__(self, work_root, publish_root):
        self.work_root = work_root
        self.publish_root = publish_root
        os.makedirs(work_root, exist_ok=True)
        os.makedirs(publish_root, exist_ok=True)
        self.current = None
        self.published = []

    def before_job(self, episode, ctx):
        if self.current is not None:
            raise RuntimeError(f"scratch folder {self.current} is still in use")
        self.current = tempfile.mkdtemp(prefix=f"{episode.slug}-", dir=self.work_root)
        ctx["workdir"] = self.current

    def after_job(self, episode, ctx, result):
        final = os.path.join(self.publish_root, os.path.basename(result["path"]))
        shutil.move(result["path"], final)
        result["path"] = final
        self.published.append(final)
        shutil.rmtree(self.current)
        self.current = None

    def job_failed(self, episode, ctx, error):
        if self.current is not None:
            shutil.rmtree(self.current, ignore_errors=True)
            self.current = None

    def leftovers(self):
        return sorted(os.listdir(self.work_root))
