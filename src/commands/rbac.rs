//! `kubectl dra rbac --for ROLE`: the least-privilege ClusterRole, as YAML.

use dra_core::format::driver_name_problem;
use dra_core::rbac::{least_privilege, Persona};

use crate::cli::{RbacArgs, RbacFor};
use crate::commands::source::resolve_gates;
use crate::Outcome;

pub fn run(args: &RbacArgs) -> Result<Outcome, String> {
    let gates = resolve_gates(&args.target, None)?;
    if driver_name_problem(&args.driver).is_some() {
        return Err(format!(
            "--driver {:?} is not a driver name: a DNS subdomain such as gpu.example.com",
            args.driver
        ));
    }
    let persona = match args.persona {
        RbacFor::Driver => Persona::Driver,
        RbacFor::Controller => Persona::Controller,
        RbacFor::Allocator => Persona::Allocator,
        RbacFor::KubectlDra => Persona::KubectlDra,
    };
    Ok(Outcome {
        stdout: least_privilege(persona, &gates, &args.driver),
        code: 0,
    })
}
