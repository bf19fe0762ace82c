//! "Did you mean" suggestions for misspelled names.

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

#[cfg(test)]
mod tests {
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
