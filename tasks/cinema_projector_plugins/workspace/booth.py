"""The booth's plugins: lamp, douser, audio processor, subtitle feed and the show controller."""
from plugins import Plugin, PluginError


class Lamp(Plugin):
    name = "lamp"

    def __init__(self):
        super().__init__()
        self.hours = 0.0
        self.strikes = 0

    def start(self):
        self.strikes += 1
        super().start()

    def burn(self, minutes):
        if not self.running:
            raise PluginError("lamp is off")
        self.hours += minutes / 60


class Douser(Plugin):
    name = "douser"
    needs = ("lamp",)

    def __init__(self):
        super().__init__()
        self.open = False

    def set_open(self, value):
        self.dep("lamp")
        self.open = value

    def stop(self):
        if self.open:
            self.set_open(False)
        super().stop()


class Audio(Plugin):
    name = "audio"

    def __init__(self):
        super().__init__()
        self.format = None

    def select(self, fmt):
        if fmt not in ("5.1", "7.1", "stereo"):
            raise PluginError(f"audio format {fmt} not supported")
        self.format = fmt


class Subtitles(Plugin):
    name = "subtitles"
    needs = ("audio",)

    def __init__(self):
        super().__init__()
        self.track = None
        self.cues_shown = 0

    def load(self, track):
        self.dep("audio")
        self.track = track

    def stop(self):
        if self.track is not None:
            audio = self.dep("audio")
            self.cues_shown += 1 if audio.format else 0
            self.track = None
        super().stop()


class ShowController(Plugin):
    name = "show"
    needs = ("douser", "subtitles")

    def __init__(self):
        super().__init__()
        self.playing = None

    def play(self, title, minutes, audio_format, subtitles=None):
        self.dep("lamp").burn(minutes)
        self.host.get("audio").select(audio_format)
        if subtitles:
            self.dep("subtitles").load(subtitles)
        self.dep("douser").set_open(True)
        self.playing = title

    def stop(self):
        if self.playing is not None:
            self.dep("douser").set_open(False)
            self.playing = None
        super().stop()
