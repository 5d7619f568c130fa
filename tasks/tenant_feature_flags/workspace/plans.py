"""Which flags a tenant's plan allows at all; an override outside the plan is refused when ops try to set it."""

PLAN_FLAGS = {
    "free": frozenset({"dark_mode"}),
    "team": frozenset({"dark_mode", "new_checkout"}),
    "enterprise": frozenset({"dark_mode", "new_checkout", "bulk_export"}),
}


class PlanViolation(ValueError):
    pass


def check_override(plan, flag, value):
    if plan not in PLAN_FLAGS:
        raise PlanViolation(f"unknown plan {plan!r}")
    if value and flag not in PLAN_FLAGS[plan]:
        raise PlanViolation(f"the {plan} plan does not include {flag}")
    return value


def allowed_overrides(plan, overrides):
    """The overrides a plan permits, silently dropping ones that would switch on a feature outside it."""
    return {flag: value for flag, value in overrides.items() if not value or flag in PLAN_FLAGS.get(plan, ())}


def upgrade_needed(plan, wanted):
    """The cheapest plan that includes every flag in `wanted`, or None when `plan` already does."""
    if set(wanted) <= PLAN_FLAGS[plan]:
        return None
    for candidate in ("free", "team", "enterprise"):
        if set(wanted) <= PLAN_FLAGS[candidate]:
            return candidate
    raise PlanViolation(f"no plan includes {sorted(wanted)}")
