"""Measures the login page on loopback: total bytes of every resource, and first contentful
paint from the Performance API, median of 10 cold loads. Run by scripts/bench.sh."""
import statistics
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from conftest import Server, chromium  # noqa: E402

WEIGHT = """
const entries = [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')];
return entries.map(e => [e.name, e.transferSize, e.encodedBodySize, e.decodedBodySize]);
"""
FCP = "const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null;"


def main():
    measure("login page", Server())
    # Seed 004's phone screen (screen load < 300 ms): its entry animation holds the first
    # contentful paint back by design, so DOMContentLoaded is reported too.
    from phone_pages import PhoneServer
    measure("phone page", PhoneServer())


def measure(label, server):
    try:
        paints, weights, ready = [], [], []
        for _ in range(10):
            driver = chromium()
            driver.execute_cdp_cmd("Network.enable", {})
            driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
            driver.get(server.url + "/login")
            driver.execute_script("return new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))")
            paints.append(driver.execute_script(FCP))
            ready.append(driver.execute_script("return performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"))
            entries = driver.execute_script(WEIGHT)
            weights.append(sum(e[3] for e in entries))
            driver.quit()
        files = ", ".join(f"{name.rsplit('/', 1)[-1] or 'login'} {decoded} B" for name, _, _, decoded in entries)
        print(f"{label} weight: {weights[-1]} bytes uncompressed in {len(entries)} requests ({files})")
        print(f"{label} DOMContentLoaded: median {statistics.median(ready):.0f} ms; "
              f"first contentful paint on loopback: median {statistics.median(paints):.0f} ms of 10 cold loads "
              f"(min {min(paints):.0f}, max {max(paints):.0f})")
    finally:
        server.close()


if __name__ == "__main__":
    main()
