//! "Did you mean" suggestions for misspelled names.

use std::collections::BTreeSet;

/// The closest candidate to `input`, if it is close enough to be a likely
/// typo (Jaro-Winkler, as clap uses for subcommands).
pub fn did_you_mean<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = input.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&lower, &c.to_ascii_lowercase()), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// For a selector that reads `domain/key` from a device's `field`
/// (`attributes` or `capacity`) that no device publishes: what is misspelt
/// (the name, the domain, or the domain the name is published under).
/// `None` when some device publishes it. `published` holds (domain, name).
pub fn unpublished(
    published: &BTreeSet<(&str, &str)>,
    field: &str,
    domain: &str,
    key: &str,
) -> Option<String> {
    if published.contains(&(domain, key)) {
        return None;
    }
    let singular = field.trim_end_matches('s');
    // A qualified name where the domain goes (`device.attributes["d/n"].bool`):
    // the map is indexed by domain, and the value is read as it is.
    if let Some((d, n)) = domain.split_once('/') {
        let missing = if published.contains(&(d, n)) {
            ""
        } else {
            " (no device publishes it)"
        };
        return Some(format!(
            "{domain:?} is a qualified name, not a domain: the {singular} is device.{field}[{d:?}].{n}{missing}"
        ));
    }
    // The name under another domain: the domain is what is wrong.
    if let Some((other, _)) = published.iter().find(|(_, n)| *n == key) {
        return Some(format!(
            "No device publishes the {singular} {domain}/{key}; devices publish {other}/{key}: use device.{field}[{other:?}].{key}"
        ));
    }
    let in_domain: BTreeSet<&str> = published
        .iter()
        .filter(|(d, _)| *d == domain)
        .map(|(_, n)| *n)
        .collect();
    if in_domain.is_empty() {
        let domains: BTreeSet<&str> = published.iter().map(|(d, _)| *d).collect();
        let which = match did_you_mean(domain, domains.iter().copied()) {
            Some(d) => format!(": did you mean {d:?}?"),
            None if domains.is_empty() => String::new(),
            None => format!(" (domains published: {})", first_eight(&domains)),
        };
        return Some(format!(
            "No device publishes {field} under {domain:?}{which}"
        ));
    }
    let which = match did_you_mean(key, in_domain.iter().copied()) {
        Some(n) => format!(": did you mean {n:?}?"),
        None => format!(" (it publishes: {})", first_eight(&in_domain)),
    };
    Some(format!(
        "No device publishes the {singular} {domain}/{key}{which}"
    ))
}

/// At most eight names, then how many more.
fn first_eight(names: &BTreeSet<&str>) -> String {
    let mut out = names.iter().take(8).copied().collect::<Vec<_>>().join(", ");
    if names.len() > 8 {
        out.push_str(&format!(" and {} more", names.len() - 8));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    #[test]
    fn unpublished_names_say_what_is_misspelt() {
        let published: BTreeSet<(&str, &str)> =
            [("gpu.example.com", "model"), ("numa.example.com", "node")].into();
        let f = |d, k| super::unpublished(&published, "attributes", d, k);
        assert_eq!(f("gpu.example.com", "model"), None);
        assert_eq!(
            f("gpu.example.com", "modle").as_deref(),
            Some(
                "No device publishes the attribute gpu.example.com/modle: did you mean \"model\"?"
            )
        );
        assert_eq!(
            f("gpu.example.com", "zzz").as_deref(),
            Some("No device publishes the attribute gpu.example.com/zzz (it publishes: model)")
        );
        assert_eq!(
            f("gpu.example.com", "node").as_deref(),
            Some("No device publishes the attribute gpu.example.com/node; devices publish numa.example.com/node: use device.attributes[\"numa.example.com\"].node")
        );
        assert_eq!(
            f("gpu.exmple.com", "zzz").as_deref(),
            Some("No device publishes attributes under \"gpu.exmple.com\": did you mean \"gpu.example.com\"?")
        );
        // The attribute's qualified name as the domain, its value as `.bool`
        // (intel-resource-drivers-for-kubernetes pod-inline-gpu-dranet.yaml).
        assert_eq!(
            f("numa.example.com/node", "bool").as_deref(),
            Some("\"numa.example.com/node\" is a qualified name, not a domain: the attribute is device.attributes[\"numa.example.com\"].node")
        );
        assert_eq!(
            f("gpu.example.com/uuid", "string").as_deref(),
            Some("\"gpu.example.com/uuid\" is a qualified name, not a domain: the attribute is device.attributes[\"gpu.example.com\"].uuid (no device publishes it)")
        );
        let none = BTreeSet::new();
        assert_eq!(
            super::unpublished(&none, "capacity", "x.example.com", "memory").as_deref(),
            Some("No device publishes capacity under \"x.example.com\"")
        );
    }

    #[test]
    fn close_names_are_suggested() {
        let fields = ["deviceClassName", "selectors", "allocationMode", "count"];
        assert_eq!(
            super::did_you_mean("deviceClass", fields),
            Some("deviceClassName")
        );
        assert_eq!(super::did_you_mean("selector", fields), Some("selectors"));
        assert_eq!(super::did_you_mean("zzz", fields), None);
    }
}
