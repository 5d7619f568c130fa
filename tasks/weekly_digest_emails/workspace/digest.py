"""The weekly digest mail, rendered once per subscriber."""
from audience import active, personal_fields
from vendor.minitemplate import Template

BRAND = {"site": "Homely", "support": "help@homely.example", "unsubscribe_base": "https://homely.example/u/"}

SUBJECT = Template("{{ first_name|default:\"Hi\" }}, {{ unread }} new listing{{ unread|plural }}{% if coupon %} + a coupon{% endif %}")
BODY = Template(
    "Hello {{ first_name|default:\"there\" }},\n"
    "{% if searches %}Your searches: {{ searches|join }}\n{% else %}Save a search to get matches here.\n{% endif %}"
    "{% for item in highlights %}- {{ item.title }} ({{ item.price|money }})\n{% endfor %}"
    "{% if coupon %}Your coupon: {{ coupon|upper }}\n{% endif %}"
    "-- {{ site }} | {{ support }} | unsubscribe: {{ unsubscribe }}\n"
)

_context = dict(BRAND)


def subject_for(sub):
    context = _context
    context.update(personal_fields(sub))
    return SUBJECT.render(context)


def body_for(sub, highlights):
    context = _context
    context.update(personal_fields(sub))
    context["highlights"] = highlights
    context["unsubscribe"] = BRAND["unsubscribe_base"] + sub.email
    return BODY.render(context)


def render_all(subscribers, highlights):
    """[(email, subject, body)] for every active subscriber, in the order given."""
    return [(s.email, subject_for(s), body_for(s, highlights)) for s in active(subscribers)]
