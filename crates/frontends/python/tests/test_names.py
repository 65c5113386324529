"""One environment id in three spellings, and the shipped agents by name from any folder."""

import warnings

import gymnasium
import pytest

import kessel_sabacc
from kessel_sabacc import shipped


def test_the_env_ids_agree():
    assert kessel_sabacc.ENV_ID == "kessel_sabacc_v1"
    assert kessel_sabacc.GYM_ID == "KesselSabacc-v1"
    assert kessel_sabacc.raw_env.metadata["name"] == kessel_sabacc.ENV_ID
    # The version is the one of the observation layout (OBS_VERSION) in every spelling.
    assert kessel_sabacc.ENV_ID.endswith(f"_v{kessel_sabacc.OBS_VERSION}")
    assert kessel_sabacc.GYM_ID.endswith(f"-v{kessel_sabacc.OBS_VERSION}")
    env = gymnasium.make(kessel_sabacc.GYM_ID, opponents=["random"])
    assert isinstance(env.unwrapped, kessel_sabacc.KesselSabaccEnv)


def test_the_former_gym_id_still_makes_the_env_and_says_it_is_out_of_date():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gymnasium.make("KesselSabacc-v0", opponents=["random"])
    assert isinstance(env.unwrapped, kessel_sabacc.KesselSabaccEnv)
    assert any("out of date" in str(w.message) for w in caught)


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """A current folder outside the repository, SABACC_HOME unset."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SABACC_HOME", raising=False)
    return tmp_path


def test_shipped_agents_load_by_name_from_any_folder(elsewhere, repo):
    champion = repo.resolve() / "checkpoints" / "champion"
    assert kessel_sabacc.agent("champion").spec == str(champion)
    assert kessel_sabacc.agent("champion@argmax").spec == f"{champion}@argmax"
    assert kessel_sabacc.agent("checkpoints/champion").spec == str(champion)
    assert kessel_sabacc.agent("search:2+champion").spec == f"search:2+{champion}"
    assert kessel_sabacc.agent("expert").spec == "expert"
    assert {"champion", "mixed-tables", "quick-4p"} <= set(shipped.checkpoints())
    report = kessel_sabacc.arena(["quick-4p@argmax", "random"], games=4)
    assert report["settings"]["agents"][0] == f"{repo.resolve() / 'checkpoints' / 'quick-4p'}@argmax"
    env = gymnasium.make(kessel_sabacc.GYM_ID, opponents=["quick-4p"]).unwrapped
    env.reset(seed=0)
    assert env.opponents == ["quick-4p"]


def test_a_name_found_nowhere_says_where_it_was_looked_for(elsewhere, monkeypatch):
    monkeypatch.setenv("SABACC_HOME", str(elsewhere / "empty"))
    assert shipped.roots() == [elsewhere / "empty"]
    with pytest.raises(ValueError, match="unknown agent `champion`.*SABACC_HOME"):
        kessel_sabacc.agent("champion")
    with pytest.raises(ValueError, match="SABACC_HOME"):
        kessel_sabacc.arena(["champion", "random"], games=2)


def test_sabacc_home_names_where_shipped_checkpoints_are(elsewhere, monkeypatch, repo):
    monkeypatch.setenv("SABACC_HOME", str(repo))
    assert kessel_sabacc.agent("mixed-tables").spec == str(repo / "checkpoints" / "mixed-tables")
