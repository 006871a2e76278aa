#ifndef GATEHOUSE_PHONE_SHIM_H
#define GATEHOUSE_PHONE_SHIM_H

// A plain C face on Google's libphonenumber (C++), so Swift needs no C++ interop.
// Every function catches every C++ exception and reports failure instead.

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The outcome of parsing: 0 parsed; otherwise libphonenumber's error plus one, or 99 for an
/// internal failure (an exception, an over-long input).
typedef struct {
    int error;
    int valid;
    /// libphonenumber's PhoneNumberType (0 FIXED_LINE, 1 MOBILE, 2 FIXED_LINE_OR_MOBILE, …, 11 UNKNOWN).
    int type;
    int country_code;
    char e164[24];
    char region[8];
    /// The number in international format ("+91 98765 43210").
    char international[48];
} gh_phone_parsed;

/// What a screen needs to know about a region.
typedef struct {
    int country_code;
    /// An example mobile number in international format, or empty when the region has none.
    char example_international[48];
    char example_e164[24];
} gh_phone_region;

/// Parses `text` as dialled from `region` (ISO 3166 alpha-2; a leading + overrides it).
void gh_phone_parse(const char *text, const char *region, gh_phone_parsed *out);

/// Fills `out` for `region`; returns 0 when the region is known.
int gh_phone_region_info(const char *region, gh_phone_region *out);

/// The region's rule for a mobile number's national digits, from the metadata libphonenumber
/// validates with: writes the pattern (a whole-match regular expression) into `pattern` and up to
/// `lengths_capacity` possible digit counts into `lengths`. Returns the pattern's length plus
/// one (call again with a bigger buffer when that exceeds `capacity`), or 0 for an unknown region.
size_t gh_phone_mobile_rule(const char *region, char *pattern, size_t capacity, int *lengths, size_t lengths_capacity, size_t *lengths_count);

/// Writes the known regions, comma-separated, into `buffer`; returns the length needed.
size_t gh_phone_supported_regions(char *buffer, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
