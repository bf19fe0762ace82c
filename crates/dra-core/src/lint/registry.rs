//! The one list of rules. `--list-rules`, `kubectl-dra rules`, the README
//! table and the selection flags all read it; a test checks that every file
//! under `rules/` is listed here exactly once.

use super::rules;
use super::Rule;

/// Rules that no longer exist: (id, name, why). A suppression comment,
/// `--ignore` or config entry naming one is accepted and suppresses nothing.
pub static RETIRED: &[(&str, &str, &str)] = &[(
    "DRA-A003",
    "kind-not-validated",
    "it named ResourcePoolStatusRequest, the one resource.k8s.io kind of 1.34-1.37 kubectl-dra did not validate; DRA-V220-V224 validate it now",
)];

/// Every rule, in id order.
pub static RULES: &[&Rule] = &[
    &rules::a001_beta_api_version::RULE,
    &rules::a002_api_version_not_served::RULE,
    &rules::c001_unguarded_attribute::RULE,
    &rules::c002_class_domain_mismatch::RULE,
    &rules::c003_selector_against_inventory::RULE,
    &rules::c004_qualified_name_as_domain::RULE,
    &rules::d001_dropped_field::RULE,
    &rules::e001_invalid_yaml::RULE,
    &rules::e002_input_over_limit::RULE,
    &rules::e003_duplicate_key::RULE,
    &rules::e004_not_an_object::RULE,
    &rules::e005_unreadable_file::RULE,
    &rules::r001_status_write_forbidden::RULE,
    &rules::r002_driver_grant_grants_nothing::RULE,
    &rules::r003_arbitrary_node_for_node_local::RULE,
    &rules::r004_driver_grant_any_driver::RULE,
    &rules::r005_driver_grant_unknown_driver::RULE,
    &rules::r006_wildcard_covers_resource_api::RULE,
    &rules::r007_slice_write_any_driver::RULE,
    &rules::r008_binding_grant_node_local::RULE,
    &rules::r009_binding_grant_grants_nothing::RULE,
    &rules::s001_unknown_field::RULE,
    &rules::s002_wrong_type::RULE,
    &rules::v001_slice_name::RULE,
    &rules::v002_driver_name::RULE,
    &rules::v003_driver_upper_case::RULE,
    &rules::v004_pool_name::RULE,
    &rules::v005_resource_slice_count::RULE,
    &rules::v006_pool_generation::RULE,
    &rules::v007_node_selection_missing::RULE,
    &rules::v008_node_selection_several::RULE,
    &rules::v009_node_name_empty::RULE,
    &rules::v010_node_name_invalid::RULE,
    &rules::v011_all_nodes_false::RULE,
    &rules::v012_per_device_node_selection_false::RULE,
    &rules::v013_node_selector_terms::RULE,
    &rules::v014_node_selector::RULE,
    &rules::v015_counters_and_devices::RULE,
    &rules::v016_immutable_slice_fields::RULE,
    &rules::v017_skip_prepare_without_unprepare::RULE,
    &rules::v018_skip_node_operations_values::RULE,
    &rules::v019_partition_type_without_counters::RULE,
    &rules::v020_partition_type_not_qualified::RULE,
    &rules::v021_partition_type_attribute_missing::RULE,
    &rules::v030_too_many_devices::RULE,
    &rules::v031_duplicate_device_name::RULE,
    &rules::v032_device_name::RULE,
    &rules::v033_too_many_attributes_and_capacities::RULE,
    &rules::v034_too_many_attribute_values::RULE,
    &rules::v035_attribute_name::RULE,
    &rules::v036_attribute_value_count::RULE,
    &rules::v037_attribute_string_too_long::RULE,
    &rules::v038_attribute_version::RULE,
    &rules::v039_empty_list_attribute::RULE,
    &rules::v040_list_attribute_items::RULE,
    &rules::v041_capacity_name::RULE,
    &rules::v042_capacity_quantity::RULE,
    &rules::v043_too_many_taints::RULE,
    &rules::v044_taint_key::RULE,
    &rules::v045_taint_value::RULE,
    &rules::v046_taint_effect::RULE,
    &rules::v047_too_many_binding_conditions::RULE,
    &rules::v048_binding_condition_format::RULE,
    &rules::v049_binding_failure_overlap::RULE,
    &rules::v050_binding_conditions_pair::RULE,
    &rules::v051_device_node_selection_without_per_device::RULE,
    &rules::v052_per_device_node_selection_missing::RULE,
    &rules::v053_device_node_name_empty::RULE,
    &rules::v060_too_many_counter_sets::RULE,
    &rules::v061_duplicate_counter_set::RULE,
    &rules::v062_counter_set_name::RULE,
    &rules::v063_counter_set_empty::RULE,
    &rules::v064_too_many_counters::RULE,
    &rules::v065_counter_name::RULE,
    &rules::v066_counter_quantity::RULE,
    &rules::v067_too_many_consumes_counters::RULE,
    &rules::v068_duplicate_consumed_counter_set::RULE,
    &rules::v069_consumed_counter_set_name::RULE,
    &rules::v070_consumed_counters::RULE,
    &rules::v071_too_many_compat_groups::RULE,
    &rules::v072_duplicate_compat_group::RULE,
    &rules::v073_counter_set_not_in_slice::RULE,
    &rules::v074_too_many_device_counters::RULE,
    &rules::v080_request_policy_without_multiple_allocations::RULE,
    &rules::v081_request_policy_both::RULE,
    &rules::v082_request_policy_default_missing::RULE,
    &rules::v083_valid_values_unsorted::RULE,
    &rules::v084_too_many_valid_values::RULE,
    &rules::v085_duplicate_valid_values::RULE,
    &rules::v086_valid_value_above_capacity::RULE,
    &rules::v087_default_not_valid_value::RULE,
    &rules::v088_valid_range_min_missing::RULE,
    &rules::v089_valid_range_min_above_capacity::RULE,
    &rules::v090_default_below_min::RULE,
    &rules::v091_valid_range_max::RULE,
    &rules::v092_default_above_max::RULE,
    &rules::v093_step_not_positive::RULE,
    &rules::v094_step_above_capacity::RULE,
    &rules::v095_not_multiple_of_step::RULE,
    &rules::v096_range_out_of_int64::RULE,
    &rules::v097_finer_than_milli::RULE,
    &rules::v100_node_allocatable_resource_name::RULE,
    &rules::v101_node_allocatable_empty::RULE,
    &rules::v102_node_allocatable_capacity_key::RULE,
    &rules::v103_node_allocatable_mapping_pair::RULE,
    &rules::v104_node_allocatable_multiplier::RULE,
    &rules::v105_node_allocatable_overhead::RULE,
    &rules::v106_node_allocatable_mappings_1_36::RULE,
    &rules::v110_class_name::RULE,
    &rules::v111_too_many_class_selectors::RULE,
    &rules::v112_class_selector_without_cel::RULE,
    &rules::v114_too_many_class_configs::RULE,
    &rules::v115_class_config_without_opaque::RULE,
    &rules::v116_opaque_driver::RULE,
    &rules::v117_opaque_parameters::RULE,
    &rules::v118_extended_resource_name::RULE,
    &rules::v130_claim_name::RULE,
    &rules::v131_template_metadata::RULE,
    &rules::v132_too_many_requests::RULE,
    &rules::v133_duplicate_request_name::RULE,
    &rules::v134_request_name::RULE,
    &rules::v135_request_without_body::RULE,
    &rules::v136_request_with_both::RULE,
    &rules::v137_too_many_subrequests::RULE,
    &rules::v138_duplicate_subrequest_name::RULE,
    &rules::v139_subrequest_name::RULE,
    &rules::v140_device_class_name::RULE,
    &rules::v141_too_many_selectors::RULE,
    &rules::v142_selector_without_cel::RULE,
    &rules::v143_allocation_mode::RULE,
    &rules::v144_count_with_all::RULE,
    &rules::v145_negative_count::RULE,
    &rules::v146_toleration_key::RULE,
    &rules::v147_toleration_value::RULE,
    &rules::v148_toleration_operator::RULE,
    &rules::v149_toleration_effect::RULE,
    &rules::v150_admin_access_forbidden::RULE,
    &rules::v151_duplicate_derived_attribute::RULE,
    &rules::v152_derived_attribute_unused::RULE,
    &rules::v153_derived_attribute_expression::RULE,
    &rules::v155_too_many_constraints::RULE,
    &rules::v156_constraint_requests_list::RULE,
    &rules::v157_constraint_request_reference::RULE,
    &rules::v158_constraint_without_attribute::RULE,
    &rules::v159_constraint_attribute_name::RULE,
    &rules::v160_cel_too_long::RULE,
    &rules::v161_cel_compile_error::RULE,
    &rules::v162_cel_empty::RULE,
    &rules::v163_cel_cost::RULE,
    &rules::v164_cel_gated::RULE,
    &rules::v165_too_many_claim_configs::RULE,
    &rules::v166_config_request_reference::RULE,
    &rules::v167_claim_config_without_opaque::RULE,
    &rules::v168_immutable_claim_spec::RULE,
    &rules::v169_claim_status_discarded::RULE,
    &rules::v170_too_many_tolerations::RULE,
    &rules::v171_allocation_result::RULE,
    &rules::v172_reserved_for::RULE,
    &rules::v173_device_status::RULE,
    &rules::v180_pod_claim_name::RULE,
    &rules::v181_pod_claim_source::RULE,
    &rules::v182_container_claim_reference::RULE,
    &rules::v183_pod_claim_not_found::RULE,
    &rules::v184_resource_version_on_create::RULE,
    &rules::v185_pod_level_resource_claims::RULE,
    &rules::v186_object_metadata::RULE,
    &rules::v187_rbac_object::RULE,
    &rules::v188_namespace_finalizers::RULE,
    &rules::v190_taint_rule_name::RULE,
    &rules::v191_taint_rule_selector::RULE,
    &rules::v192_taint_rule_cel_selectors::RULE,
    &rules::v193_taint_rule_status::RULE,
    &rules::v200_unknown_counter_set::RULE,
    &rules::v201_unknown_counter::RULE,
    &rules::v202_consumption_exceeds_counter::RULE,
    &rules::v203_duplicate_counter_set_in_pool::RULE,
    &rules::v204_duplicate_device_in_pool::RULE,
    &rules::v205_pool_slice_count::RULE,
    &rules::v206_pool_generations::RULE,
    &rules::v207_mixed_compat_groups::RULE,
    &rules::v208_partition_type_cost::RULE,
    &rules::v209_unknown_device_class::RULE,
    &rules::v210_duplicate_extended_resource::RULE,
    &rules::v212_constraint_attribute_unpublished::RULE,
    &rules::v213_capacity_request_unsatisfiable::RULE,
    &rules::v220_pool_status_request_name::RULE,
    &rules::v221_pool_status_request_spec::RULE,
    &rules::v222_pool_status_request_status_discarded::RULE,
    &rules::v223_pool_status_request_status::RULE,
    &rules::v224_immutable_pool_status_request_spec::RULE,
    &rules::v225_pool_status_summaries::RULE,
    &rules::v226_container_resources::RULE,
    &rules::h001_slice_node_missing::RULE,
    &rules::h002_allocated_device_missing::RULE,
    &rules::h003_claim_reserved_for_nobody::RULE,
    &rules::h004_evicting_taint_on_allocated_device::RULE,
    &rules::h005_taint_rule_selects_every_device::RULE,
    &rules::h006_taint_rule_selects_nothing::RULE,
    &rules::h007_bound_pod_claim_unallocated::RULE,
    &rules::h008_devices_not_prepared::RULE,
    &rules::x001_unused_suppression::RULE,
    &rules::x002_unknown_suppression::RULE,
];

/// Looks a rule up by id (`DRA-V012`) or name (`too-many-devices`).
pub fn find(key: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .copied()
        .find(|r| r.id.eq_ignore_ascii_case(key) || r.name == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_are_unique_and_well_formed() {
        for (i, a) in RULES.iter().enumerate() {
            assert!(a.id.starts_with("DRA-") && a.id.len() == 8, "{}", a.id);
            assert!(
                a.name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{}",
                a.name
            );
            assert!(
                !a.summary.is_empty() && !a.docs.is_empty() && !a.example.is_empty(),
                "{}",
                a.id
            );
            for b in &RULES[i + 1..] {
                assert_ne!(a.id, b.id);
                assert_ne!(a.name, b.name);
            }
        }
    }

    /// Each rule names the releases it applies to in one of the forms the
    /// README explains.
    #[test]
    fn every_rule_names_its_releases() {
        for r in RULES {
            let head = r.releases.split(' ').next().unwrap_or("");
            let minor = head.trim_end_matches('+').strip_prefix("1.");
            let ok = minor
                .and_then(|m| m.parse::<u8>().ok())
                .is_some_and(|m| (34..=37).contains(&m));
            assert!(ok, "{}: releases {:?}", r.id, r.releases);
        }
    }

    #[test]
    fn every_rule_file_is_registered() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/lint/rules");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| {
                e.file_name()
                    .to_string_lossy()
                    .trim_end_matches(".rs")
                    .to_owned()
            })
            .filter(|n| n != "mod" && n != "prelude")
            .collect();
        files.sort();
        assert_eq!(
            files.len(),
            RULES.len(),
            "a rule file is missing from RULES"
        );
        for f in files {
            let id = format!("DRA-{}", f[..4].to_ascii_uppercase());
            assert!(find(&id).is_some(), "{f} is not registered as {id}");
        }
    }
}
