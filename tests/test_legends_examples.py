"""Every worked example of the rules' sections 5 and 7, in the rules' own words, through
`forumgm simulate` (the CLI). Each test quotes what the rules say the result is."""
from legends_helpers import all_accepted, eliminated, events, simulate_file


def placed(phase: dict) -> list[tuple[str, str, int]]:
    return [(e["kind"], e["target"], e["amount"]) for e in events(phase, "defense_placed")]


def test_attacks_example():
    result = simulate_file("ex5_attacks.toml")
    (phase,) = result["phases"]
    assert all_accepted(phase)
    shots = [(e["kind"], e["target"], e["amount"], e["defense"], e["effective"]) for e in events(phase, "attack")]
    assert shots == [("attack", "gosha100", 5, 15, False),          # Атака 5 < Защита 15, gosha100 жив
                     ("magic_attack", "gosha100", 10, 10, False),   # Атака магией 10 = 10, gosha100 жив
                     ("attack", "Robozik", 10, 5, True)]            # Атака 10 > Защита 5, Robozik убит
    assert eliminated(phase) == {"Robozik": "attack"}
    assert result["alive"] == ["Аскон", "gosha100"]
    assert "Аскон: Атака 10 → Robozik (Защита 5) — результативна" in phase["reports"]["technical"]


def test_joint_attack_example():
    result = simulate_file("ex5_joint_attack.toml")
    (phase,) = result["phases"]
    assert all_accepted(phase)
    (joint,) = events(phase, "joint_attack")
    # Совместная атака магией Мантикоры 15 + Монаха 5 = 20 > Защита от магии Вампира 15 ... Аскон убит
    assert (joint["attackers"], joint["amounts"], joint["amount"], joint["defense"], joint["effective"]) == (
        ["gosha100", "Robozik"], [15, 5], 20, 15, True)
    assert eliminated(phase) == {"Аскон": "joint_attack"}
    assert phase["spells"]["Молитва"] == "gosha100"    # the larger contribution inherits (rules §6)


def test_several_attacks_example():
    (phase,) = simulate_file("ex5_several_attacks.toml")["phases"]
    assert all_accepted(phase)
    joints = {e["target"]: (e["kind"], e["amounts"], e["amount"]) for e in events(phase, "joint_attack")}
    assert joints == {"Аскон": ("magic_attack", [11, 5], 16),     # Аскон получит 11 + 5 = 16 единиц атаки магией
                      "Гладиатор": ("attack", [10, 3], 13)}       # Гладиатор получит 10 + 3 = 13 единиц атаки
    (single,) = events(phase, "attack")
    assert (single["kind"], single["target"], single["amount"]) == ("magic_attack", "balabol", 4)   # 4 единицы
    # what follows from the skill table: 16 > 15 and 4 > 3 kill, 13 < 15 does not
    assert eliminated(phase) == {"Аскон": "joint_attack", "balabol": "magic_attack"}


def test_defender_example():
    result = simulate_file("ex5_defender.toml")
    (phase,) = result["phases"]
    assert all_accepted(phase)
    (potential,) = events(phase, "defense_potential")
    assert (potential["potential"], potential["unspent"]) == (35, 0)      # итого у Тролля 35 единиц защиты
    # 30 on himself (10 + 10 + 10), the remaining 5 on the Vampire's magic defense
    assert placed(phase) == [("defense", "Гладиатор", 10), ("magic_defense", "Гладиатор", 10),
                             ("spy_defense", "Гладиатор", 10), ("magic_defense", "Аскон", 5)]
    (joint,) = events(phase, "joint_attack")
    assert (joint["amount"], joint["defense"], joint["effective"]) == (20, 20, False)   # 15 + 5 = 20 on Аскон
    (attack,) = events(phase, "attack")
    # Атака Тролля 7 > Защита Пегаса 3, атака результативна, Ильмаринен убит
    assert (attack["nick"], attack["target"], attack["amount"], attack["defense"], attack["effective"]) == (
        "Гладиатор", "Ильмаринен", 7, 3, True)
    assert eliminated(phase) == {"Ильмаринен": "attack"}


def test_spying_example():
    (phase,) = simulate_file("ex5_spying.toml")["phases"]
    assert all_accepted(phase)
    (spy,) = events(phase, "spy")
    # Шпионаж Пегаса 15 > Защита от шпионажа Вампира 1, шпионаж эффективен
    assert (spy["nick"], spy["target"], spy["spying"], spy["spy_defense"], spy["effective"]) == (
        "Ильмаринен", "Аскон", 15, 1, True)
    results = [pm for pm in phase["pms"] if pm["kind"] == "spy_result"]
    assert [pm["to"] for pm in results] == ["Ильмаринен"] and "Вампир" in results[0]["text"]   # узнает роль Аскона
    assert eliminated(phase) == {}


def test_theft_example():
    (phase,) = simulate_file("ex5_theft.toml")["phases"]
    assert all_accepted(phase)
    thefts = [(e["skill"], e["victim"], e["victim_after"], e["recipient"], e["recipient_after"])
              for e in events(phase, "theft")]
    assert thefts == [("attack", "Аскон", 12, "gosha100", 13),               # 15-3 = 12; 10+3 = 13
                      ("magic_attack", "Аскон", 7, "gosha100", 18),          # 10-3 = 7; 15+3 = 18
                      ("magic_defense", "Гладиатор", 12, "Ильмаринен", 6)]   # 15-3 = 12; 3+3 = 6
    assert eliminated(phase) == {}


def test_modification_example():
    (phase,) = simulate_file("ex5_modification.toml")["phases"]
    assert all_accepted(phase)
    mods = [(e["skill"], e["target"], e["before"], e["after"]) for e in events(phase, "modification")]
    assert mods == [("attack", "Аскон", 15, 12), ("magic_attack", "gosha100", 15, 12),
                    ("defense", "Кума", 5, 8), ("magic_defense", "Кума", 5, 8),
                    ("spy_defense", "Гладиатор", 5, 2), ("spying", "Robozik", 12, 15),
                    ("theft_attack", "Ильмаринен", 3, 0)]
    assert eliminated(phase) == {}


def test_first_command_priority_example():
    (phase,) = simulate_file("ex7_first_command_priority.toml")["phases"]
    assert all_accepted(phase)
    (weakened,) = events(phase, "modification")
    assert (weakened["target"], weakened["after"]) == ("Аскон", 12)      # его Атака теперь равна 12
    amounts = [(e["target"], e["requested"], e["amount"]) for e in events(phase, "attack")]
    # исчезнет Атака на Гладиатора (-2), а Атака на Ильмаринена сократится с 5 до 4 (-1)
    assert amounts == [("gosha100", 8, 8), ("Ильмаринен", 5, 4), ("Гладиатор", 2, 0)]
    technical = phase["reports"]["technical"]
    assert "Атака 4 (из 5) → Ильмаринен" in technical
    assert "Атака 0 (из 2) → Гладиатор (Защита 15) — отменена: навык исчерпан" in technical


def test_defense_priority_example():
    (phase,) = simulate_file("ex7_defense_priority.toml")["phases"]
    assert all_accepted(phase)
    (theft,) = events(phase, "theft")
    assert (theft["victim"], theft["amount"]) == ("Гладиатор", 3)
    (potential,) = events(phase, "defense_potential")
    assert (potential["potential"], potential["unspent"]) == (32, 0)     # не 35, а только 32 (35-3)
    # Защита 15 (32 – 15 = 17), Защита от магии 15 (17 – 15 = 2), Защита от магии Аскон 2
    assert placed(phase) == [("defense", "Гладиатор", 15), ("magic_defense", "Гладиатор", 15),
                             ("magic_defense", "Аскон", 2)]


def test_defense_priority_example_reordered():
    (phase,) = simulate_file("ex7_defense_priority_reordered.toml")["phases"]
    assert all_accepted(phase)
    # 5 единиц Защиты будет направлено на Аскона, а на себя Тролль установит 15 единиц Защиты
    # и 12 (оставшихся после кражи) единиц Защиты от магии
    assert placed(phase) == [("magic_defense", "Аскон", 5), ("defense", "Гладиатор", 15),
                             ("magic_defense", "Гладиатор", 12)]
