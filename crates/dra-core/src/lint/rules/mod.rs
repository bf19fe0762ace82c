//! One file per rule. Each declares `RULE` with its id, docs and check;
//! [`super::registry`] is the one list of them.

pub(crate) mod prelude;

/// Declares a rule's `RULE` static.
#[macro_export]
#[doc(hidden)]
macro_rules! declare_rule {
    (@fix) => { None };
    (@fix $fix:expr) => { Some($fix) };
    (id: $id:literal, name: $name:literal, severity: $sev:ident, origin: $origin:ident,
     summary: $summary:literal, docs: $docs:literal, example: $example:literal, check: $check:expr
     $(, fix: $fix:expr)? $(,)?) => {
        declare_rule! {
            id: $id, name: $name, severity: $sev, origin: $origin, releases: "1.34+",
            summary: $summary, docs: $docs, example: $example, check: $check $(, fix: $fix)?
        }
    };
    (id: $id:literal, name: $name:literal, severity: $sev:ident, origin: $origin:ident, releases: $rel:literal,
     summary: $summary:literal, docs: $docs:literal, example: $example:literal, check: $check:expr
     $(, fix: $fix:expr)? $(,)?) => {
        pub static RULE: $crate::lint::Rule = $crate::lint::Rule {
            id: $id,
            name: $name,
            severity: $crate::diag::Severity::$sev,
            origin: $crate::lint::Origin::$origin,
            releases: $rel,
            summary: $summary,
            docs: $docs,
            example: $example,
            check: $check,
            fix: declare_rule!(@fix $($fix)?),
        };
    };
}

pub mod a001_beta_api_version;
pub mod a002_api_version_not_served;
pub mod c001_unguarded_attribute;
pub mod c002_class_domain_mismatch;
pub mod c003_selector_against_inventory;
pub mod c004_qualified_name_as_domain;
pub mod d001_dropped_field;
pub mod e001_invalid_yaml;
pub mod e002_input_over_limit;
pub mod e003_duplicate_key;
pub mod e004_not_an_object;
pub mod e005_unreadable_file;
pub mod h001_slice_node_missing;
pub mod h002_allocated_device_missing;
pub mod h003_claim_reserved_for_nobody;
pub mod h004_evicting_taint_on_allocated_device;
pub mod h005_taint_rule_selects_every_device;
pub mod h006_taint_rule_selects_nothing;
pub mod h007_bound_pod_claim_unallocated;
pub mod h008_devices_not_prepared;
pub mod r001_status_write_forbidden;
pub mod r002_driver_grant_grants_nothing;
pub mod r003_arbitrary_node_for_node_local;
pub mod r004_driver_grant_any_driver;
pub mod r005_driver_grant_unknown_driver;
pub mod r006_wildcard_covers_resource_api;
pub mod r007_slice_write_any_driver;
pub mod r008_binding_grant_node_local;
pub mod r009_binding_grant_grants_nothing;
pub mod s001_unknown_field;
pub mod s002_wrong_type;
pub mod v001_slice_name;
pub mod v002_driver_name;
pub mod v003_driver_upper_case;
pub mod v004_pool_name;
pub mod v005_resource_slice_count;
pub mod v006_pool_generation;
pub mod v007_node_selection_missing;
pub mod v008_node_selection_several;
pub mod v009_node_name_empty;
pub mod v010_node_name_invalid;
pub mod v011_all_nodes_false;
pub mod v012_per_device_node_selection_false;
pub mod v013_node_selector_terms;
pub mod v014_node_selector;
pub mod v015_counters_and_devices;
pub mod v016_immutable_slice_fields;
pub mod v017_skip_prepare_without_unprepare;
pub mod v018_skip_node_operations_values;
pub mod v019_partition_type_without_counters;
pub mod v020_partition_type_not_qualified;
pub mod v021_partition_type_attribute_missing;
pub mod v030_too_many_devices;
pub mod v031_duplicate_device_name;
pub mod v032_device_name;
pub mod v033_too_many_attributes_and_capacities;
pub mod v034_too_many_attribute_values;
pub mod v035_attribute_name;
pub mod v036_attribute_value_count;
pub mod v037_attribute_string_too_long;
pub mod v038_attribute_version;
pub mod v039_empty_list_attribute;
pub mod v040_list_attribute_items;
pub mod v041_capacity_name;
pub mod v042_capacity_quantity;
pub mod v043_too_many_taints;
pub mod v044_taint_key;
pub mod v045_taint_value;
pub mod v046_taint_effect;
pub mod v047_too_many_binding_conditions;
pub mod v048_binding_condition_format;
pub mod v049_binding_failure_overlap;
pub mod v050_binding_conditions_pair;
pub mod v051_device_node_selection_without_per_device;
pub mod v052_per_device_node_selection_missing;
pub mod v053_device_node_name_empty;
pub mod v060_too_many_counter_sets;
pub mod v061_duplicate_counter_set;
pub mod v062_counter_set_name;
pub mod v063_counter_set_empty;
pub mod v064_too_many_counters;
pub mod v065_counter_name;
pub mod v066_counter_quantity;
pub mod v067_too_many_consumes_counters;
pub mod v068_duplicate_consumed_counter_set;
pub mod v069_consumed_counter_set_name;
pub mod v070_consumed_counters;
pub mod v071_too_many_compat_groups;
pub mod v072_duplicate_compat_group;
pub mod v073_counter_set_not_in_slice;
pub mod v074_too_many_device_counters;
pub mod v080_request_policy_without_multiple_allocations;
pub mod v081_request_policy_both;
pub mod v082_request_policy_default_missing;
pub mod v083_valid_values_unsorted;
pub mod v084_too_many_valid_values;
pub mod v085_duplicate_valid_values;
pub mod v086_valid_value_above_capacity;
pub mod v087_default_not_valid_value;
pub mod v088_valid_range_min_missing;
pub mod v089_valid_range_min_above_capacity;
pub mod v090_default_below_min;
pub mod v091_valid_range_max;
pub mod v092_default_above_max;
pub mod v093_step_not_positive;
pub mod v094_step_above_capacity;
pub mod v095_not_multiple_of_step;
pub mod v096_range_out_of_int64;
pub mod v097_finer_than_milli;
pub mod v100_node_allocatable_resource_name;
pub mod v101_node_allocatable_empty;
pub mod v102_node_allocatable_capacity_key;
pub mod v103_node_allocatable_mapping_pair;
pub mod v104_node_allocatable_multiplier;
pub mod v105_node_allocatable_overhead;
pub mod v106_node_allocatable_mappings_1_36;
pub mod v110_class_name;
pub mod v111_too_many_class_selectors;
pub mod v112_class_selector_without_cel;
pub mod v114_too_many_class_configs;
pub mod v115_class_config_without_opaque;
pub mod v116_opaque_driver;
pub mod v117_opaque_parameters;
pub mod v118_extended_resource_name;
pub mod v130_claim_name;
pub mod v131_template_metadata;
pub mod v132_too_many_requests;
pub mod v133_duplicate_request_name;
pub mod v134_request_name;
pub mod v135_request_without_body;
pub mod v136_request_with_both;
pub mod v137_too_many_subrequests;
pub mod v138_duplicate_subrequest_name;
pub mod v139_subrequest_name;
pub mod v140_device_class_name;
pub mod v141_too_many_selectors;
pub mod v142_selector_without_cel;
pub mod v143_allocation_mode;
pub mod v144_count_with_all;
pub mod v145_negative_count;
pub mod v146_toleration_key;
pub mod v147_toleration_value;
pub mod v148_toleration_operator;
pub mod v149_toleration_effect;
pub mod v150_admin_access_forbidden;
pub mod v151_duplicate_derived_attribute;
pub mod v152_derived_attribute_unused;
pub mod v153_derived_attribute_expression;
pub mod v155_too_many_constraints;
pub mod v156_constraint_requests_list;
pub mod v157_constraint_request_reference;
pub mod v158_constraint_without_attribute;
pub mod v159_constraint_attribute_name;
pub mod v160_cel_too_long;
pub mod v161_cel_compile_error;
pub mod v162_cel_empty;
pub mod v163_cel_cost;
pub mod v164_cel_gated;
pub mod v165_too_many_claim_configs;
pub mod v166_config_request_reference;
pub mod v167_claim_config_without_opaque;
pub mod v168_immutable_claim_spec;
pub mod v169_claim_status_discarded;
pub mod v170_too_many_tolerations;
pub mod v171_allocation_result;
pub mod v172_reserved_for;
pub mod v173_device_status;
pub mod v180_pod_claim_name;
pub mod v181_pod_claim_source;
pub mod v182_container_claim_reference;
pub mod v183_pod_claim_not_found;
pub mod v184_resource_version_on_create;
pub mod v185_pod_level_resource_claims;
pub mod v186_object_metadata;
pub mod v187_rbac_object;
pub mod v188_namespace_finalizers;
pub mod v190_taint_rule_name;
pub mod v191_taint_rule_selector;
pub mod v192_taint_rule_cel_selectors;
pub mod v193_taint_rule_status;
pub mod v200_unknown_counter_set;
pub mod v201_unknown_counter;
pub mod v202_consumption_exceeds_counter;
pub mod v203_duplicate_counter_set_in_pool;
pub mod v204_duplicate_device_in_pool;
pub mod v205_pool_slice_count;
pub mod v206_pool_generations;
pub mod v207_mixed_compat_groups;
pub mod v208_partition_type_cost;
pub mod v209_unknown_device_class;
pub mod v210_duplicate_extended_resource;
pub mod v212_constraint_attribute_unpublished;
pub mod v213_capacity_request_unsatisfiable;
pub mod v220_pool_status_request_name;
pub mod v221_pool_status_request_spec;
pub mod v222_pool_status_request_status_discarded;
pub mod v223_pool_status_request_status;
pub mod v224_immutable_pool_status_request_spec;
pub mod v225_pool_status_summaries;
pub mod v226_container_resources;
pub mod x001_unused_suppression;
pub mod x002_unknown_suppression;
