"""Temperature conversions."""


def to_celsius(fahrenheit):
    """Degrees Fahrenheit to degrees Celsius, rounded to one decimal."""
    return round((fahrenheit - 32) * 5 / 9, 1)
