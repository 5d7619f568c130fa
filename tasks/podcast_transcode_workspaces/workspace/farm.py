"""The transcode farm: one runner with the scratch-folder plugin, fed a batch of uploads."""
from dataclasses import dataclass, field

from transcode import decode, encode, normalise
from vendor.stepflow import JobFailed, Runner, Step
from workspace_plugin import ScratchFolders


@dataclass
class BatchReport:
    published: list = field(default_factory=list)
    failed: dict = field(default_factory=dict)


class Farm:
    def __init__(self, work_root, publish_root):
        self.scratch = ScratchFolders(work_root, publish_root)
        self.runner = Runner([Step("decode", decode), Step("normalise", normalise), Step("encode", encode)], [self.scratch])

    def transcode(self, episode):
        return self.runner.run(episode)

    def batch(self, episodes):
        report = BatchReport()
        for episode in episodes:
            try:
                result = self.transcode(episode)
                report.published.append((episode.slug, result["seconds"]))
            except JobFailed as exc:
                report.failed[episode.slug] = f"{exc.step}: {exc.error}"
        return report


def summary(report):
    """One line for the producers' channel."""
    minutes = sum(seconds for _, seconds in report.published) / 60
    line = f"{len(report.published)} published ({minutes:.1f} min of audio)"
    if report.failed:
        line += "; failed: " + ", ".join(f"{slug} ({why})" for slug, why in sorted(report.failed.items()))
    return line
