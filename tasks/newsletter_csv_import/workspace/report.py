"""What the person who uploaded a file sees afterwards: a summary line and a downloadable error CSV."""
import csv
import io

MAX_LISTED = 20


def summary(result, list_name):
    if result.skipped_duplicate_file:
        return f"{list_name}: this file was already imported; nothing changed"
    parts = [f"{result.added} added", f"{result.updated} updated"]
    if result.errors:
        parts.append(f"{len(result.errors)} rows skipped")
    return f"{list_name}: " + ", ".join(parts)


def error_csv(result):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["line", "problem"])
    for line, problem in result.errors[:MAX_LISTED]:
        writer.writerow([line, problem])
    hidden = len(result.errors) - MAX_LISTED
    if hidden > 0:
        writer.writerow(["", f"... and {hidden} more"])
    return buffer.getvalue()


def export_contacts(mailing):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["email", "first_name", "last_name", "tags"])
    for email in sorted(mailing.contacts):
        c = mailing.contacts[email]
        writer.writerow([c.email, c.first_name, c.last_name, "|".join(c.tags)])
    return buffer.getvalue()
