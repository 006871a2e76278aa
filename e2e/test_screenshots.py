"""Screenshots of every state at 375×667 (iPhone SE), light and dark, for the README."""
import pathlib

import pytest
from pages import STATES, reach

SHOTS = pathlib.Path(__file__).resolve().parent.parent / "docs" / "screenshots"


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("state", STATES)
def test_screenshot_of_every_state(browser, server, state, theme):
    driver = browser(width=375, height=667, dark=theme == "dark", reduced_motion=True)
    reach(driver, server, state)
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{state}-{theme}.png"
    assert driver.save_screenshot(str(path))
    assert path.stat().st_size > 5_000
