"""The transcode steps: decode, normalise loudness, encode into the distribution format."""
import os
import struct
import zlib

from episodes import read_source

TARGET_PEAK = 30000


def decode(episode, ctx, _):
    rate, samples = read_source(episode.source)
    if not samples:
        raise ValueError(f"{episode.slug}: no audio")
    scratch = os.path.join(ctx["workdir"], "decoded.raw")
    with open(scratch, "wb") as fh:
        fh.write(struct.pack(f"<{len(samples)}h", *samples))
    return {"rate": rate, "samples": samples}


def normalise(episode, ctx, audio):
    peak = max(abs(s) for s in audio["samples"])
    if peak == 0:
        raise ValueError(f"{episode.slug}: silent recording")
    gain = TARGET_PEAK / peak
    samples = [max(-32768, min(32767, round(s * gain))) for s in audio["samples"]]
    return {"rate": audio["rate"], "samples": samples, "gain": round(gain, 3)}


def encode(episode, ctx, audio):
    raw = struct.pack(f"<{len(audio['samples'])}h", *audio["samples"])
    body = zlib.compress(raw, 6)
    out = os.path.join(ctx["workdir"], f"{episode.slug}.pcz")
    with open(out, "wb") as fh:
        fh.write(b"PCZ1" + struct.pack("<II", audio["rate"], len(audio["samples"])) + body)
    return {"path": out, "gain": audio["gain"], "seconds": round(len(audio["samples"]) / audio["rate"], 2)}


def decode_output(path):
    with open(path, "rb") as fh:
        data = fh.read()
    rate, count = struct.unpack("<II", data[4:12])
    return rate, list(struct.unpack(f"<{count}h", zlib.decompress(data[12:])))
