"""README's two commands are the ones CI and newcomers actually run."""
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
