"""Issue 36, point 10: every example's brand on every link, focus ring and button, with
contrast of at least 4.5:1 checked on the computed colours, light and dark (a failure fails).

Peated's "Forgot password?" was the browser's default link blue (#0000EE, lavender in dark)
with the browser's focus ring, and every app's buttons were the same blue under its own logo."""
import json
import pathlib

import pytest
from selenium.webdriver.common.by import By

from conftest import ROOT, Server
from pages import el
from phone_pages import PhoneServer, settled

EXAMPLES = ["000-generic", "001-projects", "002-peated", "003-peer-mentor", "004-urbannest"]

# The computed colours of the page's links and buttons, each against the background it sits on
# (the nearest ancestor with an opaque background).
COLOURS = """
const background = (node) => {
  for (let n = node; n; n = n.parentElement) {
    const c = getComputedStyle(n).backgroundColor;
    if (c && !c.startsWith('rgba(0, 0, 0, 0)') && c !== 'transparent') return c;
  }
  return getComputedStyle(document.documentElement).backgroundColor;
};
const visible = (n) => n.getClientRects().length && getComputedStyle(n).visibility !== 'hidden';
// A primary button is read as it looks once enabled (the empty form's is disabled until valid).
return [...document.querySelectorAll('a, .link-button, button.primary')].filter(visible).map((n) => {
  const was = n.disabled;
  n.disabled = false;
  const read = {
    id: n.id || n.textContent.trim().slice(0, 24), kind: n.matches('button.primary') ? 'button' : 'link',
    color: getComputedStyle(n).color, background: background(n.matches('button.primary') ? n : n.parentElement),
  };
  n.disabled = was;
  return read;
}).filter((read) => read.kind === 'button' || !document.getElementById(read.id)?.disabled);
"""


def rgb(text):
    parts = text[text.index("(") + 1:text.index(")")].split(",")
    return [float(p) for p in parts[:3]]


def luminance(colour):
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = sorted((luminance(rgb(a)), luminance(rgb(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def hex_rgb(value):
    value = value.lstrip("#")
    return f"rgb({int(value[0:2], 16)}, {int(value[2:4], 16)}, {int(value[4:6], 16)})"


@pytest.fixture(scope="module", params=EXAMPLES)
def example(request):
    server = PhoneServer() if request.param == "004-urbannest" else Server(request.param)
    server.example = request.param
    yield server
    server.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_I36_links_and_buttons_have_the_apps_colours_at_4_5_to_1(sized, example, theme):
    driver = settled(sized(dark=theme == "dark"))
    driver.get(example.url + "/login")
    settled(driver)
    colours = driver.execute_script(COLOURS)
    assert any(c["kind"] == "button" for c in colours), colours
    for c in colours:
        ratio = contrast(c["color"], c["background"])
        assert ratio >= 4.5, f"{example.example} {theme}: {c['id']} {c['color']} on {c['background']} is {ratio:.2f}:1"
    app = json.loads((ROOT / "examples" / example.example / "gatehouse.json").read_text())
    palette = app["login"].get("theme", {}).get(theme, {})
    if "link" in palette:
        for c in colours:
            if c["kind"] == "link" and c["id"] in ("forgot-link", "signup-link", "switch-link"):
                assert c["color"] == hex_rgb(palette["link"]), (example.example, theme, c)
    if "primary" in palette:
        button = driver.find_element(By.CSS_SELECTOR, "button.primary")
        enabled = driver.execute_script(
            "const b = arguments[0], was = b.disabled; b.disabled = false; const c = getComputedStyle(b).backgroundColor; "
            "b.disabled = was; return c", button)
        assert enabled == hex_rgb(palette["primary"])


def test_I36_peateds_forgot_link_and_its_focus_ring_are_peateds(sized, example):
    if example.example != "002-peated":
        pytest.skip("Peated's link")
    driver = sized()
    driver.get(example.url + "/login")
    settled(driver)
    link = el(driver, "forgot-link")
    assert link.value_of_css_property("color") == "rgba(180, 83, 9, 1)"
    driver.execute_script("arguments[0].focus()", link)
    driver.switch_to.active_element.send_keys("")  # keyboard focus, so :focus-visible applies
    outline = driver.execute_script("return getComputedStyle(arguments[0]).outlineColor", link)
    assert outline == "rgb(180, 83, 9)", outline
