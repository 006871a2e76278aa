"""WCAG 2.2 AA checked by machines: axe-core in every state, in light and dark, and contrast
computed from the colours Chromium actually renders."""
import json

import pytest
from pages import STATES, reach

def axe_violations(driver, axe_source):
    driver.execute_script(axe_source)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}})"
        ".then(r => done(JSON.stringify(r.violations))).catch(e => done(JSON.stringify([{id: 'axe-error', help: String(e)}])));")
    return json.loads(result)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("state", STATES)
def test_WCAG22AA_axe_finds_no_violations(browser, server, axe_source, state, theme):
    driver = browser(dark=theme == "dark")
    driver.set_script_timeout(30)
    reach(driver, server, state)
    violations = axe_violations(driver, axe_source)
    assert violations == [], [(v["id"], v.get("help"), [n.get("target") for n in v.get("nodes", [])]) for v in violations]


CONTRAST = """
function luminance(rgb) {
  const [r, g, b] = rgb.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function parse(color) { return color.match(/[\\d.]+/g).map(Number); }
function background(element) {
  for (let e = element; e; e = e.parentElement) {
    const c = parse(getComputedStyle(e).backgroundColor);
    if (c.length < 4 || c[3] > 0) return c.slice(0, 3);
  }
  return [255, 255, 255];
}
const results = [];
for (const selector of arguments[0]) {
  for (const e of document.querySelectorAll(selector)) {
    if (!e.offsetParent || e.disabled) continue;
    const style = getComputedStyle(e, selector.includes('::placeholder') ? '::placeholder' : null);
    const fg = luminance(parse(style.color).slice(0, 3)), bg = luminance(background(e));
    results.push([selector, (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)]);
  }
}
return results;
"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_R8_text_contrast_is_at_least_4_5_to_1(browser, server, theme):
    selectors = ["h1", ".app-name", "label", ".error span", ".banner span", "#submit .label", "input#email"]
    measured = []
    for state in ("field-errors", "failure-banner"):
        driver = browser(dark=theme == "dark")
        reach(driver, server, state)
        measured += driver.execute_script(CONTRAST, selectors)
    assert {s for s, _ in measured} >= {"h1", ".app-name", "label", ".error span", ".banner span", "#submit .label"}
    for selector, ratio in measured:
        assert ratio >= 4.5, (selector, round(ratio, 2))
