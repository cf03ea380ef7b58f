"""The Space README's front matter agrees with the code: the files the full tier loads are the ones preloaded."""
from pathlib import Path

import yaml

from e3rg_core.tiers import full as full_tier

README = Path(__file__).resolve().parents[1] / "README.md"


def _front_matter() -> dict:
    text = README.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1])


def test_preload_from_hub_lists_exactly_what_the_full_tier_reads():
    assert _front_matter()["preload_from_hub"] == full_tier.preload_from_hub()


def test_front_matter_names_every_model_repository_and_the_gradio_space_settings():
    meta = _front_matter()
    repos = {line.split()[0] for line in full_tier.preload_from_hub()}
    assert repos <= set(meta["models"])
    assert meta["sdk"] == "gradio" and meta["app_file"] == "app.py"
    import gradio
    assert meta["sdk_version"] == gradio.__version__
    assert str(meta["python_version"]) in ("3.10", "3.12")


def test_readme_has_exactly_the_two_setup_commands():
    text = README.read_text(encoding="utf-8")
    setup = text.split("## Set up", 1)[1].split("\n## ", 1)[0]
    blocks = [block.split("\n", 1)[1].strip() for block in setup.split("```bash")[1:]]
    assert [block.split("```")[0].strip() for block in blocks] == [
        "bash scripts/install.sh && .venv/bin/python app.py", "bash scripts/test.sh"]
    assert "scripts/test.sh" in (README.parent / ".ci" / "run").read_text()


def test_the_space_is_licensed_for_non_commercial_use():
    """DICE-Talk's weights (CC BY-NC-SA 4.0) and the EmpatheticDialogues-derived head (CC BY-NC 4.0) make the Space
    non-commercial; the front matter says so in a form Hugging Face accepts, and the licence table agrees."""
    meta = _front_matter()
    if meta["license"] == "other":      # HF's rule for "other": a license_name and the licence text in the repo
        assert meta["license_name"] and (README.parent / meta["license_link"]).is_file()
        text = (README.parent / meta["license_link"]).read_text(encoding="utf-8")
        assert "non-commercial" in text.lower() and "BY-NC-SA 4.0" in text and "BY-NC 4.0" in text
    else:
        assert meta["license"] in ("cc-by-nc-4.0", "cc-by-nc-sa-4.0")
    section = README.read_text(encoding="utf-8").split("## Licences", 1)[1].split("\n## ", 1)[0]
    assert "non-commercial use only" in section
    rows = {line.split("|")[1].strip(): line.split("|")[3] for line in section.splitlines() if line.startswith("| ")}
    dicetalk = next(licence for name, licence in rows.items() if "DICE-Talk" in name)
    head = next(licence for name, licence in rows.items() if "text_emotion_head" in name)
    assert "CC BY-NC-SA 4.0" in dicetalk and "non-commercial" in dicetalk
    assert "CC BY-NC 4.0" in head and "non-commercial" in head
