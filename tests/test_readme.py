"""README's two commands are the ones CI and newcomers actually run."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def shell_blocks(text: str) -> list[str]:
    blocks, inside, current = [], False, []
    for line in text.splitlines():
        if line.startswith("```"):
            if inside:
                blocks.append("\n".join(current))
            inside, current = not inside, []
        elif inside:
            current.append(line)
    return blocks


def test_ci_runs_the_readme_test_command():
    blocks = shell_blocks((ROOT / "README.md").read_text())
    test_command = next(block for block in blocks if "pytest" in block)
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_command in ci_lines


def test_readme_run_command_starts_the_app_on_the_default_database():
    blocks = shell_blocks((ROOT / "README.md").read_text())
    run_command = blocks[0]
    assert "pip install -e ." in run_command
    assert run_command.endswith("flask --app scorekeeper run")


def settings_section() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index("## Settings")
    return text[start : text.index("\n## ", start + 1)]


def test_readme_lists_every_setting_and_only_those():
    from scorekeeper.web import settings

    section = settings_section()
    named = set(re.findall(r"^\| `([A-Z_]+)` \|", section, flags=re.MULTILINE))
    known = set(settings.ENVIRONMENT) | set(settings.defaults("instance"))
    # DATABASE_URL and SECRET_KEY are both; the rest are one or the other.
    assert named == known


def test_environment_settings_are_read_as_readme_says():
    from scorekeeper.web import settings

    read = settings.from_environment(
        {
            "DATABASE_URL": "postgresql+psycopg://u@h/n",
            "SECRET_KEY": "s",
            "SCOREKEEPER_OPEN_SIGNUP": "1",
            "SCOREKEEPER_BEHIND_PROXY": "1",
        }
    )
    assert read == {
        "DATABASE_URL": "postgresql+psycopg://u@h/n",
        "SECRET_KEY": "s",
        "OPEN_SIGNUP": True,
        "PROXY_FIX": True,
    }
    assert settings.from_environment({"SCOREKEEPER_OPEN_SIGNUP": "0"}) == {"OPEN_SIGNUP": False}
    assert settings.from_environment({}) == {}


def test_readme_layout_names_every_room_and_module_of_the_app():
    text = (ROOT / "README.md").read_text()
    start = text.index("## Layout")
    end = text.find("\n## ", start + 1)
    layout = text[start : end if end != -1 else len(text)]
    package = ROOT / "scorekeeper"
    rooms = [path.parent for path in package.glob("*/__init__.py")]
    assert len(rooms) >= 10  # the walk found the rooms
    for room in rooms:
        assert f"`scorekeeper/{room.name}/`" in layout, room.name
        modules = [path.name for path in room.glob("*.py") if path.name != "__init__.py"]
        missing = [name for name in modules if name not in layout]
        assert not missing, f"README's layout does not say what these are: {missing}"
    assert [path.name for path in package.glob("*.py")] == ["__init__.py"]  # all in rooms
    for folder in ("migrations", "translations"):
        assert f"{folder}/" in layout, folder