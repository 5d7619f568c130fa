"""Age checks for sign-up."""

ADULT_AGE = 18


def is_adult(age):
    """True from the 18th birthday on."""
    return age >= ADULT_AGE
