"""Response export for the analysts: one CSV row per answered invite."""
import csv
import io


def responses_csv(campaign, questions):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["wave", "token", *questions])
    rows = []
    for token, answers in campaign.responses.items():
        invite = campaign.invites[token]
        rows.append([invite.wave, token, *(answers.get(q, "") for q in questions)])
    for row in sorted(rows):
        writer.writerow(row)
    return buffer.getvalue()


def response_rate(campaign, wave):
    invited = [t for t, inv in campaign.invites.items() if inv.wave == wave]
    if not invited:
        return 0.0
    return sum(t in campaign.responses for t in invited) / len(invited)
