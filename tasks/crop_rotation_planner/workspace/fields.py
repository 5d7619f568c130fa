"""Fields and what grew on them in past years."""
from dataclasses import dataclass, field

from crops import crop


@dataclass
class Field:
    name: str
    hectares: float
    soil: str = "loam"
    history: dict = field(default_factory=dict)

    def plant(self, year, crop_name):
        crop(crop_name)
        if year in self.history:
            raise ValueError(f"{self.name}: {year} already planted with {self.history[year]}")
        self.history[year] = crop_name

    def last_year_of_family(self, family, before_year):
        years = [y for y, name in self.history.items() if y < before_year and crop(name).family == family]
        return max(years) if years else None

    def previous(self, year):
        return self.history.get(year - 1)

    def crops_grown(self):
        """Distinct crops in the record, in the order first grown."""
        seen = []
        for year in sorted(self.history):
            if self.history[year] not in seen:
                seen.append(self.history[year])
        return seen


def parse_history(lines):
    """'Field name | hectares | 2022:potato, 2023:winter wheat'."""
    fields = []
    for line in lines:
        name, ha, hist = (p.strip() for p in line.split("|"))
        f = Field(name, float(ha))
        for item in filter(None, (h.strip() for h in hist.split(","))):
            year, crop_name = item.split(":")
            f.plant(int(year), crop_name.strip())
        fields.append(f)
    return fields
