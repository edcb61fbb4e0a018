"""A device is named by its browser and system, so a member can tell theirs apart."""
import pytest

from scorekeeper.clubs.access import browser_label

AGENTS = {
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36": "Chrome on Android",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, "
    "like Gecko) Version/17.5 Mobile/15E148 Safari/604.1": "Safari on iPhone",
    "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) "
    "SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36": "Samsung Internet on Android",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0": "Edge on Windows",
    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0": "Firefox on Linux",
    "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "CriOS/120.0 Mobile/15E148 Safari/604.1": "Chrome on iPad",
    "curl/8.5.0": "A browser",
    "": "A browser",
}


@pytest.mark.parametrize("agent, label", AGENTS.items())
def test_the_label_names_browser_and_system(agent, label):
    assert browser_label(agent) == label
