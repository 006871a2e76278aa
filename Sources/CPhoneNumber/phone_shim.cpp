#include "phone_shim.h"

#include <cstring>
#include <set>
#include <string>

#include <phonenumbers/phonemetadata.pb.h>
#include <phonenumbers/phonenumberutil.h>

namespace i18n {
namespace phonenumbers {
// The metadata libphonenumber was built with (its generated metadata.cc; the header is not installed).
int metadata_size();
const void *metadata_get();
}  // namespace phonenumbers
}  // namespace i18n

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

namespace {

void copy(const std::string &value, char *target, size_t capacity) {
    size_t length = value.size() < capacity - 1 ? value.size() : capacity - 1;
    std::memcpy(target, value.data(), length);
    target[length] = '\0';
}

/// The region's metadata, read once from the library's own copy; nullptr for an unknown region.
const i18n::phonenumbers::PhoneMetadata *metadata(const std::string &region) {
    static const i18n::phonenumbers::PhoneMetadataCollection *collection = [] {
        auto *parsed = new i18n::phonenumbers::PhoneMetadataCollection();
        parsed->ParseFromArray(i18n::phonenumbers::metadata_get(), i18n::phonenumbers::metadata_size());
        return parsed;
    }();
    for (const auto &entry : collection->metadata()) {
        if (entry.id() == region) return &entry;
    }
    return nullptr;
}

}  // namespace

extern "C" size_t gh_phone_mobile_rule(const char *region, char *pattern, size_t capacity, int *lengths, size_t lengths_capacity, size_t *lengths_count) {
    *lengths_count = 0;
    if (capacity > 0) pattern[0] = '\0';
    try {
        const i18n::phonenumbers::PhoneMetadata *found = metadata(region);
        if (found == nullptr || !found->has_mobile()) return 0;
        const auto &mobile = found->mobile();
        const auto &possible = mobile.possible_length_size() > 0 ? mobile.possible_length() : found->general_desc().possible_length();
        for (int length : possible) {
            if (length > 0 && *lengths_count < lengths_capacity) lengths[(*lengths_count)++] = length;
        }
        const std::string &rule = mobile.national_number_pattern();
        if (capacity > 0) copy(rule, pattern, capacity);
        return rule.size() + 1;
    } catch (...) {
        *lengths_count = 0;
        if (capacity > 0) pattern[0] = '\0';
        return 0;
    }
}

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
