"""Answer times of two kinds of request, compared as an attacker would compare them.

An attacker who wants to know whether an address has an account sends requests for addresses
they know to be taken and for ones they know to be free, one at a time, and compares how long
each kind takes. `paired_gap` does the same with the least noise it can: requests go in pairs
(one of each kind, the order alternating from pair to pair, so a slower second place or a slow
stretch of the machine falls on both kinds alike), each after a pause in which the previous
request's after-the-answer work (its mail) has finished, and the gap is the median of the
pairs' differences. Tests that use it are marked `timing`: `e2e/run.sh` runs them after the rest
of the suite, one at a time, on an otherwise idle machine."""
import statistics
import time

# Long enough for the previous answer's mail to have left (the outbox's first try runs after
# the answer), so each request is timed on its own.
SETTLE = 0.05


def paired_gap(send, known, unknown):
    """The median of `known − unknown` answer times, in seconds, over pairs of `send(item)`.

    Returns the median and the pairs' differences (for the assertion's message)."""
    differences = []
    for index, (known_item, unknown_item) in enumerate(zip(known, unknown, strict=True)):
        order = (("known", known_item), ("unknown", unknown_item))
        took = {}
        for kind, item in order if index % 2 == 0 else reversed(order):
            time.sleep(SETTLE)
            start = time.monotonic()
            send(item)
            took[kind] = time.monotonic() - start
        differences.append(took["known"] - took["unknown"])
    return statistics.median(differences), [round(difference * 1000, 2) for difference in differences]
