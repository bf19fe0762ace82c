use crate::gates::{FeatureGates, Version};
use crate::lint::{lint, Settings, SourceFile};

/// sigs.k8s.io/yaml turns YAML into JSON before the apiserver decodes
/// it: a whole float below 2^63 is marshalled as digits and decodes into
/// an int64 field; a fraction (or a number that big) does not.
#[test]
fn whole_floats_are_integers_after_yaml_to_json() {
    let rules_for = |count: &str| {
        let text = format!("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: c, namespace: default}}\nspec:\n  devices:\n    requests:\n    - name: r\n      exactly:\n        deviceClassName: gpu\n        count: {count}\n");
        let settings = Settings::for_gates(FeatureGates::defaults(Version::LATEST));
        let r = lint(
            &[SourceFile {
                name: "c.yaml".into(),
                text,
            }],
            Vec::new(),
            &settings,
        );
        r.diagnostics
            .iter()
            .filter(|d| d.severity == crate::diag::Severity::Error)
            .map(|d| d.rule.to_owned())
            .collect::<Vec<_>>()
    };
    for whole in ["2", "2.0", "1e1", "0x2"] {
        assert!(
            rules_for(whole).is_empty(),
            "{whole}: {:?}",
            rules_for(whole)
        );
    }
    for wrong in ["2.5", "1e19", "'2'"] {
        assert!(rules_for(wrong).contains(&"DRA-S002".to_owned()), "{wrong}");
    }
    // Validated as the integer it became: -1 is not a valid count (0 is
    // defaulted to 1).
    assert!(!rules_for("-1.0").is_empty());
    assert!(rules_for("0.0").is_empty());
}
