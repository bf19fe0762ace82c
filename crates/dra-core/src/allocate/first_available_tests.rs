//! allocationMode All inside firstAvailable in 1.34 and 1.35: two faults
//! of every implementation of release-1.34 and release-1.35 that kubernetes
//! e0e0199 ("Fix incorrect behavior when using AllocationModeAll with
//! PrioritizedList") fixed in 1.36. `Allocate` validates subrequest i with
//! the request key of subrequest i-1 (`requestKey.subRequestIndex = i` came
//! after the `validateDeviceRequest` call), and `isSelectable` remembers
//! its answers by that key; and `allocateOne` goes on to an All
//! subrequest's next device without the subrequest's index, that is as
//! subrequest 0. The scheduler of those releases allocates what these tests
//! expect, and so must `explain`.

use super::test_support::allocate;
use crate::gates::Version;

/// Devices d0 and d1 of driver a.example.com on n1, generation v5.
const SLICE: &str = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: a.example.com\n  nodeName: n1\n  pool: {name: p, generation: 1, resourceSliceCount: 1}\n  devices:\n  - {name: d0, attributes: {gen: {string: v5}}}\n  - {name: d1, attributes: {gen: {string: v5}}}\n---\n";

/// Claim `c` with one firstAvailable request `r` of these subrequests,
/// each `(name, generation it selects, All or a count of one)`.
fn claim(subs: &[(&str, &str, bool)]) -> String {
    let mut out = String::from("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: r\n      firstAvailable:\n");
    for (name, gen, all) in subs {
        let mode = if *all {
            "allocationMode: All"
        } else {
            "count: 1"
        };
        out.push_str(&format!(
            "      - {{name: {name}, deviceClassName: a, {mode}, selectors: [{{cel: {{expression: 'device.attributes[\"a.example.com\"].gen == \"{gen}\"'}}}}]}}\n"
        ));
    }
    out
}

/// `request -> device` of claim c, or why not.
fn picks(subs: &[(&str, &str, bool)], version: Version) -> Result<Vec<String>, String> {
    let objects = format!("{SLICE}{}", claim(subs));
    allocate(&objects, version, &[]).map(|claims| {
        claims[0]
            .results
            .iter()
            .map(|r| format!("{} -> {}", r.request, r.device))
            .collect()
    })
}

/// Upstream's case "prioritized-list-allocation-mode-all-with-selectors":
/// the second subrequest is validated under the first one's key and takes
/// its answers (no device is v6), so 1.35 finds no device for either.
#[test]
fn a_second_all_subrequest_reads_the_first_ones_answers() {
    let subs = [("s0", "v6", true), ("s1", "v5", true)];
    assert_eq!(picks(&subs, Version::V1_35), Err("unsatisfiable".into()));
    assert_eq!(picks(&subs, Version::V1_34), Err("unsatisfiable".into()));
    assert_eq!(
        picks(&subs, Version::V1_36),
        Ok(vec!["r/s1 -> d0".into(), "r/s1 -> d1".into()])
    );
}

/// An All subrequest validated under the key of the count subrequest before
/// it leaves its answers there: the first subrequest, which asks for v6,
/// then takes a v5 device in 1.35.
#[test]
fn a_count_subrequest_reads_the_next_all_ones_answers() {
    let subs = [("s0", "v6", false), ("s1", "v5", true)];
    assert_eq!(picks(&subs, Version::V1_35), Ok(vec!["r/s0 -> d0".into()]));
    assert_eq!(
        picks(&subs, Version::V1_36),
        Ok(vec!["r/s1 -> d0".into(), "r/s1 -> d1".into()])
    );
}

/// The third subrequest is validated with its own selectors (under the
/// second's key, which nothing else filled), but after its first device
/// 1.35 goes on as the first subrequest, a count of one already reached:
/// the claim gets one of the two v5 devices it asks for all of.
#[test]
fn an_all_subrequest_goes_on_as_the_first_one() {
    let subs = [("s0", "v6", false), ("s1", "v7", true), ("s2", "v5", true)];
    assert_eq!(picks(&subs, Version::V1_35), Ok(vec!["r/s2 -> d0".into()]));
    assert_eq!(
        picks(&subs, Version::V1_36),
        Ok(vec!["r/s2 -> d0".into(), "r/s2 -> d1".into()])
    );
}
