"""Seed 004: the server's phone numbers (Debian's libphonenumber 8.12.57 through CPhoneNumber)
agree with an independent implementation, PyPI `phonenumbers` pinned to the same metadata
release, on validity, type, region and E.164 for a few hundred generated numbers."""
import json
import random
import subprocess

import phonenumbers
from phonenumbers import PhoneNumberType

from conftest import BIN

REGIONS = ["IN", "GB", "US", "DE", "BR", "NG", "AU", "JP", "FR", "SG"]
TYPES = [PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE, PhoneNumberType.TOLL_FREE, PhoneNumberType.VOIP]


def camel(name):
    head, *rest = name.lower().split("_")
    return head + "".join(part.title() for part in rest)


def generated(seed=4004):
    """Example numbers of each type per region, the same with a digit changed, dropped or added,
    random digit strings, and international forms."""
    rng = random.Random(seed)
    cases = []
    for region in REGIONS:
        for kind in TYPES:
            example = phonenumbers.example_number_for_type(region, kind)
            if example is None:
                continue
            national = str(example.national_number)
            cases.append((national, region))
            cases.append((phonenumbers.format_number(example, phonenumbers.PhoneNumberFormat.INTERNATIONAL), region))
            for _ in range(3):
                i = rng.randrange(len(national))
                cases.append((national[:i] + str(rng.randrange(10)) + national[i + 1:], region))
            cases.append((national[:-1], region))
            cases.append((national + str(rng.randrange(10)), region))
        for _ in range(12):
            cases.append(("".join(str(rng.randrange(10)) for _ in range(rng.randrange(5, 13))), region))
    return cases


def oracle(text, region):
    try:
        number = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        return {"parsed": False}
    kind = phonenumbers.number_type(number)
    return {
        "parsed": True, "valid": phonenumbers.is_valid_number(number),
        "type": camel(PhoneNumberType.to_string(kind)) if kind != PhoneNumberType.UNKNOWN else "unknown",
        "e164": phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164),
        "region": phonenumbers.region_code_for_number(number) or "",
    }


def server_answers(cases):
    answers = []
    for region in REGIONS:
        inputs = [text for text, r in cases if r == region]
        out = subprocess.run([BIN, "phone", "check", "--country", region], input="\n".join(inputs) + "\n",
                             capture_output=True, text=True, check=True).stdout
        answers += [((json.loads(line)["input"], region), json.loads(line)) for line in out.splitlines()]
    return dict(answers)


def test_S004_libphonenumber_agrees_with_the_phonenumbers_oracle_on_generated_numbers():
    assert phonenumbers.__version__ == "8.12.57"
    cases = list(dict.fromkeys(generated()))
    assert len(cases) >= 300
    answers = server_answers(cases)
    disagreements = []
    for text, region in cases:
        expected, got = oracle(text, region), answers[(text, region)]
        fields = ["parsed"] + (["valid", "type", "e164", "region"] if expected["parsed"] else [])
        mine = {field: got.get(field) if field != "region" else (got.get("region") or "") for field in fields}
        if mine != {field: expected[field] for field in fields}:
            disagreements.append((text, region, mine, expected))
    assert disagreements == [], disagreements[:10]
    # Both sides saw every kind of answer, so the comparison is not vacuous.
    kinds = {answers[c].get("type") for c in cases}
    assert {"mobile", "fixedLine", "tollFree"} <= kinds and any(not answers[c]["valid"] for c in cases)


def test_S004_only_mobile_numbers_can_get_a_code():
    answers = server_answers([("1234567890", "IN"), ("9876543210", "IN")])
    assert answers[("1234567890", "IN")]["sms"] is False  # a valid fixed-line number in India
    assert answers[("9876543210", "IN")]["sms"] is True
