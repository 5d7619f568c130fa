"""Letters and grade points from course percentages."""
from fractions import Fraction

from policy import GRADE_POINTS


def letter_for(percent, policy):
    if percent is None:
        return "I"
    for cutoff, letter in policy.cutoffs:
        if percent > cutoff:
            return letter
    return policy.cutoffs[-1][1]


def grade_points(letter):
    if letter not in GRADE_POINTS:
        raise KeyError(f"{letter!r} carries no grade points")
    return GRADE_POINTS[letter]


def display_percent(percent):
    if percent is None:
        return "--"
    rounded = Fraction(int(Fraction(percent) * 10 + Fraction(1, 2)), 10)
    return f"{float(rounded):.1f}%"
