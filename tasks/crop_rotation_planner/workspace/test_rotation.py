from fields import Field, parse_history
from nitrogen import farm_nitrogen, fertiliser_bags, margin, nitrogen_need
from planner import audit, plan
from report import family_shares, legume_years, rotation_table
from rules import family_rested, violations

HISTORY = [
    "Long Acre | 12 | 2022:potato, 2023:winter wheat, 2024:field bean, 2025:spring barley",
    "Brook     | 8  | 2022:carrot, 2023:cabbage, 2024:winter wheat, 2025:sugar beet",
    "Top Field | 5  | 2023:spring barley, 2024:clover ley, 2025:winter wheat",
]


def test_potatoes_need_four_clear_years():
    f = Field("test", 1)
    f.plant(2022, "potato")
    assert not family_rested(f, "potato", 2025)
    assert family_rested(f, "potato", 2026)


def test_one_year_rest_for_cereals():
    f = Field("test", 1)
    f.plant(2025, "spring barley")
    assert family_rested(f, "spring barley", 2026)


def test_wheat_after_wheat_is_refused():
    f = Field("test", 1)
    f.plant(2025, "winter wheat")
    assert violations(f, 2026, "winter wheat") == ["test 2026: winter wheat after winter wheat"]


def test_recorded_history_is_clean():
    fields = parse_history(HISTORY)
    assert audit(fields) == []
    assert fields[2].crops_grown() == ["spring barley", "clover ley", "winter wheat"]


def test_plan_for_2026():
    fields = parse_history(HISTORY)
    chosen = plan(fields, 2026)
    assert chosen == {("Long Acre", 2026): "carrot", ("Brook", 2026): "potato", ("Top Field", 2026): "cabbage"}
    assert audit(fields) == []


def test_two_season_plan_stays_legal():
    fields = parse_history(HISTORY)
    plan(fields, 2026, seasons=2)
    assert audit(fields) == []
    assert fields[0].history[2027] != "carrot"


def test_nitrogen_and_margin():
    fields = parse_history(HISTORY)
    # barley after beans: 120 - 32 carried over; beet 120; wheat after clover 200 - 60
    assert [nitrogen_need(f, 2025) for f in fields] == [88, 120, 140]
    assert farm_nitrogen(fields, 2025) == 12 * 88 + 8 * 120 + 5 * 140
    assert margin(fields, 2025) == 12 * 800 + 8 * 1500 + 5 * 1100
    # 2716 kg N is 7872 kg of product: 16 bags
    assert fertiliser_bags(fields, 2025) == 16


def test_rotation_table_and_family_shares():
    fields = parse_history(HISTORY)
    assert rotation_table(fields, 2024, 2025) == [
        "field       2024           2025",
        "Long Acre   field bean     spring barley",
        "Brook       winter wheat   sugar beet",
        "Top Field   clover ley     winter wheat",
    ]
    assert family_shares(fields, 2025) == {"amaranthaceae": 32.0, "poaceae": 68.0}
    assert legume_years(fields[2]) == [2024]
