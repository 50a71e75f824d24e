//! The `format`s a person's schema may ask for that are checked, each as ajv-formats' `full`
//! mode checks it (its regular expressions, copied; `tests/core-js` runs ajv with ajv-formats
//! beside this checker on the same values): `date-time`, `date`, `time` (both with a time zone,
//! RFC 3339), `email`, `uri`, `uuid`, `ipv4`, `ipv6`. Any other format is a note, not a check.

use std::sync::OnceLock;

use regex_lite::Regex;

/// The formats checked.
pub const CHECKED: &[&str] = &[
    "date-time",
    "date",
    "time",
    "email",
    "uri",
    "uuid",
    "ipv4",
    "ipv6",
];

/// What the format is called, for the message.
pub fn noun(format: &str) -> &'static str {
    match format {
        "date-time" => "a date and time",
        "date" => "a date",
        "time" => "a time",
        "email" => "an email address",
        "uri" => "an absolute URI",
        "uuid" => "a UUID",
        "ipv4" => "an IPv4 address",
        "ipv6" => "an IPv6 address",
        _ => "of that format",
    }
}

/// What the format means, for `expected` and the hint.
pub fn words(format: &str) -> &'static str {
    match format {
        "date-time" => "a date and time with its time zone (RFC 3339), like 2024-05-01T12:00:00Z",
        "date" => "a date (RFC 3339), like 2024-05-01",
        "time" => "a time with its time zone (RFC 3339), like 12:00:00Z",
        "email" => "an email address, like ada@example.com",
        "uri" => "an absolute URI, like https://example.com/page",
        "uuid" => "a UUID, like 123e4567-e89b-12d3-a456-426614174000",
        "ipv4" => "an IPv4 address, like 192.168.0.1",
        "ipv6" => "an IPv6 address, like 2001:db8::1",
        _ => "a value of that format",
    }
}

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("the format patterns are valid"))
}

/// Whether `s` is of `format` (`true` for a format that is not checked).
pub fn is_valid(format: &str, s: &str) -> bool {
    static EMAIL: OnceLock<Regex> = OnceLock::new();
    static IPV4: OnceLock<Regex> = OnceLock::new();
    static IPV6: OnceLock<Regex> = OnceLock::new();
    static UUID: OnceLock<Regex> = OnceLock::new();
    static URI: OnceLock<Regex> = OnceLock::new();
    match format {
        "date" => date(s),
        "time" => time(s),
        "date-time" => date_time(s),
        "email" => re(&EMAIL, r"(?i)^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$").is_match(s),
        "ipv4" => re(&IPV4, r"^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$").is_match(s),
        "ipv6" => re(&IPV6, IPV6_PATTERN).is_match(s),
        "uuid" => re(&UUID, r"(?i)^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$").is_match(s),
        "uri" => (s.contains('/') || s.contains(':')) && re(&URI, URI_PATTERN).is_match(s),
        _ => true,
    }
}

const IPV6_PATTERN: &str = r"(?i)^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))$";

const URI_PATTERN: &str = r"(?i)^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$";

/// Digits only, of exactly `n` ASCII digits.
fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
}

/// RFC 3339 full-date with a real day of the month.
fn date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let [y, m, d] = parts[..] else { return false };
    let (Some(year), Some(month), Some(day)) = (digits(y, 4), digits(m, 2), digits(d, 2)) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    const DAYS: [u32; 13] = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    (1..=12).contains(&month)
        && day >= 1
        && day
            <= if month == 2 && leap {
                29
            } else {
                DAYS[month as usize]
            }
}

/// RFC 3339 full-time, the zone required; a leap second only at 23:59 UTC (ajv-formats' rule).
fn time(s: &str) -> bool {
    static TIME: OnceLock<Regex> = OnceLock::new();
    let re = re(
        &TIME,
        r"(?i)^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$",
    );
    let Some(c) = re.captures(s) else {
        return false;
    };
    let num = |i: usize| {
        c.get(i)
            .map_or(0.0, |m| m.as_str().parse::<f64>().unwrap_or(0.0))
    };
    let (hr, min, sec) = (num(1), num(2), num(3));
    if c.get(4).is_none() {
        return false;
    }
    let sign = if c.get(5).is_some_and(|m| m.as_str() == "-") {
        -1.0
    } else {
        1.0
    };
    let (tz_h, tz_m) = (num(6), num(7));
    if tz_h > 23.0 || tz_m > 59.0 {
        return false;
    }
    if hr <= 23.0 && min <= 59.0 && sec < 60.0 {
        return true;
    }
    let utc_min = min - tz_m * sign;
    let utc_hr = hr - tz_h * sign - if utc_min < 0.0 { 1.0 } else { 0.0 };
    (utc_hr == 23.0 || utc_hr == -1.0) && (utc_min == 59.0 || utc_min == -1.0) && sec < 61.0
}

/// A date and a time, split at `T`, `t` or a space.
fn date_time(s: &str) -> bool {
    let parts: Vec<&str> = s
        .split(|c: char| c == 'T' || c == 't' || c.is_whitespace())
        .collect();
    parts.len() == 2 && date(parts[0]) && time(parts[1])
}

#[cfg(test)]
mod tests {
    use super::is_valid;

    #[test]
    fn each_format_takes_its_own_and_refuses_the_rest() {
        for (format, good, bad) in [
            ("date", "2024-02-29", "2023-02-29"),
            (
                "date-time",
                "2024-05-01T12:00:00.5+02:00",
                "2024-05-01T12:00:00",
            ),
            ("time", "23:59:60Z", "12:00:00"),
            ("email", "ada.l@example.co.uk", "ada@"),
            ("uri", "https://example.com/a?b=c#d", "example.com"),
            (
                "uuid",
                "123E4567-e89b-12d3-a456-426614174000",
                "123e4567-e89b-12d3-a456",
            ),
            ("ipv4", "192.168.0.1", "256.1.1.1"),
            ("ipv6", "2001:db8::1", "2001:db8:::1"),
        ] {
            assert!(is_valid(format, good), "{format}: {good}");
            assert!(!is_valid(format, bad), "{format}: {bad}");
        }
        assert!(is_valid("hostname", "not checked at all"));
    }
}
