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
