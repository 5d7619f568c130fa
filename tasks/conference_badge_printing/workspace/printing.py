from layout import badge_layout, render_lines


class PrintJob:
    def __init__(self, printer="front-desk"):
        self.printer = printer
        self.badges = []

    def add(self, attendee):
        layout = badge_layout(attendee)
        self.badges.append({
            "ref": attendee.ref,
            "size_mm": layout["size_mm"],
            "background": layout["colours"]["background"],
            "ribbons": list(layout["ribbons"]),
            "lines": render_lines(attendee, layout),
        })
        return self.badges[-1]

    def add_all(self, attendees):
        for a in attendees:
            self.add(a)
        return len(self.badges)

    def sheet_count(self, per_sheet=8):
        return -(-len(self.badges) // per_sheet)

    def preview(self, ref):
        badge = next(b for b in self.badges if b["ref"] == ref)
        text = [f"[{badge['background']}] {' / '.join(badge['ribbons']) or '-'}"]
        text += [f"{font}:{pt} {value}" for font, pt, value in badge["lines"]]
        return text
