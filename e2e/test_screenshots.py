"""Screenshots of every state at 375×667 (iPhone SE), light and dark.

A test run writes them under the build folder and never touches the repository;
`scripts/screenshots.sh` writes the README's copies in docs/screenshots."""
import os
import pathlib

import pytest
from pages import STATES, reach

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHOTS = pathlib.Path(os.environ.get("GATEHOUSE_SCREENSHOTS_DIR", ROOT / ".build-e2e" / "screenshots"))


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("state", STATES)
def test_screenshot_of_every_state(browser, server, state, theme):
    driver = browser(width=375, height=667, dark=theme == "dark", reduced_motion=True)
    reach(driver, server, state)
    # Every animation (the spinner) stopped at its first frame, so a state always looks the same.
    driver.execute_script("document.getAnimations().forEach((a) => { a.pause(); a.currentTime = 0; });")
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{state}-{theme}.png"
    assert driver.save_screenshot(str(path))
    assert path.stat().st_size > 5_000
