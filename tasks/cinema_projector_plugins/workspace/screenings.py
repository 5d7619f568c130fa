"""A day of screenings: power the booth up, run the shows, power down, and keep the booth log."""
from booth import Audio, Douser, Lamp, ShowController, Subtitles
from plugins import Host


def build_booth(log=None):
    """Every booth plugin registered with one host (in no particular order)."""
    host = Host(log)
    for plugin in (ShowController(), Subtitles(), Audio(), Douser(), Lamp()):
        host.add(plugin)
    return host


def run_day(host, programme):
    """programme: [(title, minutes, audio format, subtitle track or None)]."""
    host.start_all()
    show = host.get("show")
    for title, minutes, fmt, subs in programme:
        show.play(title, minutes, fmt, subs)
    return host.stop_all()


def lamp_report(host):
    """Lamp hours and strikes, for the chief projectionist's weekly sheet."""
    lamp = host.get("lamp")
    return f"lamp: {lamp.hours:.1f} h over {lamp.strikes} strikes"
