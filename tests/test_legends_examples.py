"""Every worked example of the rules' sections 5 and 7, in the rules' own words, through simulate."""
from legends_helpers import all_accepted, eliminated, events, play_file


def test_attacks_example():
    phase = play_file("ex5_attacks.toml")["phases"][0]
    assert all_accepted(phase)
    shots = [(e["kind"], e["target"], e["amount"], e["defense"], e["effective"]) for e in events(phase, "attack")]
    assert shots == [("attack", "gosha100", 5, 15, False),          # 5 < 15, gosha100 жив
                     ("magic_attack", "gosha100", 10, 10, False),   # 10 = 10, gosha100 жив
                     ("attack", "Robozik", 10, 5, True)]            # 10 > 5, Robozik убит
    assert eliminated(phase) == {"Robozik": "attack"}


def test_joint_attack_example():
    result = play_file("ex5_joint_attack.toml")
    phase = result["phases"][0]
    assert all_accepted(phase)
    (joint,) = events(phase, "joint_attack")
    assert (joint["amounts"], joint["amount"], joint["defense"], joint["effective"]) == ([15, 5], 20, 15, True)
    assert eliminated(phase) == {"Аскон": "joint_attack"}
    assert phase["spells"]["Молитва"] == "gosha100"    # the larger contribution inherits


def test_several_attacks_example():
    phase = play_file("ex5_several_attacks.toml")["phases"][0]
    assert all_accepted(phase)
    joints = {e["target"]: (e["amounts"], e["effective"]) for e in events(phase, "joint_attack")}
    assert joints == {"Аскон": ([11, 5], True), "Гладиатор": ([10, 3], False)}    # 16 > 15; 13 < 15
    (single,) = events(phase, "attack")
    assert (single["target"], single["amount"], single["effective"]) == ("balabol", 4, True)
    assert eliminated(phase) == {"Аскон": "joint_attack", "balabol": "magic_attack"}


def test_defender_example():
    phase = play_file("ex5_defender.toml")["phases"][0]
    assert all_accepted(phase)
    (potential,) = events(phase, "defense_potential")
    assert (potential["potential"], potential["unspent"]) == (35, 0)
    placed = [(e["kind"], e["target"], e["amount"]) for e in events(phase, "defense_placed")]
    assert placed == [("defense", "Гладиатор", 10), ("magic_defense", "Гладиатор", 10),
                      ("spy_defense", "Гладиатор", 10), ("magic_defense", "Аскон", 5)]
    (joint,) = events(phase, "joint_attack")
    assert (joint["amount"], joint["defense"], joint["effective"]) == (20, 20, False)   # 15 + 5 on Аскон
    (attack,) = events(phase, "attack")
    assert (attack["amount"], attack["defense"], attack["effective"]) == (7, 3, True)
    assert eliminated(phase) == {"Ильмаринен": "attack"}


def test_spying_example():
    phase = play_file("ex5_spying.toml")["phases"][0]
    (spy,) = events(phase, "spy")
    assert (spy["spying"], spy["spy_defense"], spy["effective"]) == (15, 1, True)
    results = [pm for pm in phase["pms"] if pm["kind"] == "spy_result"]
    assert [pm["to"] for pm in results] == ["Ильмаринен"] and "Вампир" in results[0]["text"]


def test_theft_example():
    phase = play_file("ex5_theft.toml")["phases"][0]
    assert all_accepted(phase)
    thefts = [(e["skill"], e["victim"], e["victim_after"], e["recipient"], e["recipient_after"])
              for e in events(phase, "theft")]
    assert thefts == [("attack", "Аскон", 12, "gosha100", 13),
                      ("magic_attack", "Аскон", 7, "gosha100", 18),
                      ("magic_defense", "Гладиатор", 12, "Ильмаринен", 6)]


def test_modification_example():
    phase = play_file("ex5_modification.toml")["phases"][0]
    assert all_accepted(phase)
    mods = [(e["skill"], e["target"], e["before"], e["after"]) for e in events(phase, "modification")]
    assert mods == [("attack", "Аскон", 15, 12), ("magic_attack", "gosha100", 15, 12),
                    ("defense", "Кума", 5, 8), ("magic_defense", "Кума", 5, 8),
                    ("spy_defense", "Гладиатор", 5, 2), ("spying", "Robozik", 12, 15),
                    ("theft_attack", "Ильмаринен", 3, 0)]


def test_first_command_priority_example():
    phase = play_file("ex7_first_command_priority.toml")["phases"][0]
    assert all_accepted(phase)
    amounts = [(e["target"], e["requested"], e["amount"]) for e in events(phase, "attack")]
    assert amounts == [("gosha100", 8, 8), ("Ильмаринен", 5, 4), ("Гладиатор", 2, 0)]
    assert "Атака 4 (из 5) → Ильмаринен" in phase["reports"]["technical"]


def test_defense_priority_example():
    phase = play_file("ex7_defense_priority.toml")["phases"][0]
    assert all_accepted(phase)
    (potential,) = events(phase, "defense_potential")
    assert potential["potential"] == 32
    placed = [(e["kind"], e["target"], e["amount"]) for e in events(phase, "defense_placed")]
    assert placed == [("defense", "Гладиатор", 15), ("magic_defense", "Гладиатор", 15),
                      ("magic_defense", "Аскон", 2)]


def test_defense_priority_example_reordered():
    phase = play_file("ex7_defense_priority_reordered.toml")["phases"][0]
    placed = [(e["kind"], e["target"], e["amount"]) for e in events(phase, "defense_placed")]
    assert placed == [("magic_defense", "Аскон", 5), ("defense", "Гладиатор", 15),
                      ("magic_defense", "Гладиатор", 12)]
