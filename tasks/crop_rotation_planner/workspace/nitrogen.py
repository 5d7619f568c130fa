"""Fertiliser budget: each crop's nitrogen demand less what the previous legume left in the soil."""
from crops import crop

LEGUME_CARRYOVER = 0.4


def nitrogen_need(field, year):
    name = field.history.get(year)
    if name is None:
        return 0
    need = crop(name).nitrogen_kg_ha
    prev = field.previous(year)
    if prev is not None and crop(prev).fixes_nitrogen:
        need += int(crop(prev).nitrogen_kg_ha * LEGUME_CARRYOVER)
    return max(0, need)


def farm_nitrogen(fields, year):
    """kg of nitrogen to buy for the whole farm in `year`."""
    return round(sum(nitrogen_need(f, year) * f.hectares for f in fields))


def margin(fields, year):
    return round(sum(crop(f.history[year]).margin_per_ha * f.hectares for f in fields if year in f.history))


def fertiliser_bags(fields, year, bag_kg=500, n_percent=34.5):
    """Bags of ammonium nitrate (34.5% N) to order, rounded up to whole bags."""
    kg_n = farm_nitrogen(fields, year)
    if kg_n == 0:
        return 0
    product_kg = kg_n * 100 / n_percent
    return int(-(-product_kg // bag_kg))
