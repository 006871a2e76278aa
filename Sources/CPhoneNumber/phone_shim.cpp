#include "phone_shim.h"

#include <cstring>
#include <set>
#include <string>

#include <phonenumbers/phonenumberutil.h>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

namespace {

void copy(const std::string &value, char *target, size_t capacity) {
    size_t length = value.size() < capacity - 1 ? value.size() : capacity - 1;
    std::memcpy(target, value.data(), length);
    target[length] = '\0';
}

}  // namespace

extern "C" void gh_phone_parse(const char *text, const char *region, gh_phone_parsed *out) {
    std::memset(out, 0, sizeof(*out));
    out->error = 99;
    try {
        if (std::strlen(text) > 250) return;
        const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
        PhoneNumber number;
        PhoneNumberUtil::ErrorType error = util->Parse(text, region, &number);
        if (error != PhoneNumberUtil::NO_PARSING_ERROR) {
            out->error = static_cast<int>(error) + 1;
            return;
        }
        out->error = 0;
        out->valid = util->IsValidNumber(number) ? 1 : 0;
        out->type = static_cast<int>(util->GetNumberType(number));
        out->country_code = number.country_code();
        std::string formatted;
        util->Format(number, PhoneNumberUtil::E164, &formatted);
        copy(formatted, out->e164, sizeof(out->e164));
        util->Format(number, PhoneNumberUtil::INTERNATIONAL, &formatted);
        copy(formatted, out->international, sizeof(out->international));
        std::string regionCode;
        util->GetRegionCodeForNumber(number, &regionCode);
        copy(regionCode, out->region, sizeof(out->region));
    } catch (...) {
        std::memset(out, 0, sizeof(*out));
        out->error = 99;
    }
}

extern "C" int gh_phone_region_info(const char *region, gh_phone_region *out) {
    std::memset(out, 0, sizeof(*out));
    try {
        const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
        int code = util->GetCountryCodeForRegion(region);
        if (code == 0) return 1;
        out->country_code = code;
        PhoneNumber example;
        if (util->GetExampleNumberForType(region, PhoneNumberUtil::MOBILE, &example)) {
            std::string formatted;
            util->Format(example, PhoneNumberUtil::INTERNATIONAL, &formatted);
            copy(formatted, out->example_international, sizeof(out->example_international));
            util->Format(example, PhoneNumberUtil::E164, &formatted);
            copy(formatted, out->example_e164, sizeof(out->example_e164));
        }
        return 0;
    } catch (...) {
        std::memset(out, 0, sizeof(*out));
        return 99;
    }
}

extern "C" size_t gh_phone_supported_regions(char *buffer, size_t capacity) {
    try {
        std::set<std::string> regions;
        PhoneNumberUtil::GetInstance()->GetSupportedRegions(&regions);
        std::string joined;
        for (const std::string &region : regions) {
            if (!joined.empty()) joined += ",";
            joined += region;
        }
        if (capacity > 0) copy(joined, buffer, capacity);
        return joined.size() + 1;
    } catch (...) {
        if (capacity > 0) buffer[0] = '\0';
        return 0;
    }
}
