//! `devices -o json` written row by row (issue 37): a fleet's rows are
//! serialized as they are built, never held, so the answer costs what the
//! inventory costs. The same answer as the collected path, in the same order.

use std::cell::RefCell;
use std::collections::HashMap;

use dra_core::model::{node_labels, Object};
use dra_core::tree::Node;
use dra_core::usage::{self, DeviceRow};

use crate::cli::DevicesArgs;
use crate::commands::source::Inventory;
use crate::Outcome;

/// Whether the streamed path gives the answer: JSON, no sorting and no
/// class filter (both need every row first), not the summary.
pub fn applies(args: &DevicesArgs) -> bool {
    args.output == crate::cli::DevicesOutput::Json
        && !args.summary
        && args.sort_by.is_none()
        && args.class.is_none()
}

pub fn run(args: &DevicesArgs, inv: &Inventory) -> Result<Outcome, String> {
    // Nodes' labels by name, for `-l`: looked up per device.
    let labels: HashMap<&str, Option<&Node>> = node_labels(&inv.objects).collect();
    let keep = |r: &DeviceRow| -> Result<bool, String> {
        if args.node.as_ref().is_some_and(|n| &r.node != n)
            || args.driver.as_ref().is_some_and(|d| &r.driver != d)
        {
            return Ok(false);
        }
        match &args.selector {
            Some(sel) => {
                let l = labels.get(r.node.as_str()).copied().flatten();
                usage::label_selector_matches(sel, l).map_err(|e| e.to_string())
            }
            None => Ok(true),
        }
    };
    let rows = Rows {
        objects: &inv.objects,
        gates: &inv.gates,
        keep: &keep,
        error: RefCell::new(None),
    };
    let invalid = usage::invalid_pools(&inv.objects);
    #[derive(serde::Serialize)]
    struct Answer<'a, 'r> {
        devices: &'a Rows<'r>,
        #[serde(rename = "invalidPools")]
        invalid_pools: &'a [usage::InvalidPool],
    }
    let stdout = crate::render::stream_json(&Answer {
        devices: &rows,
        invalid_pools: &invalid,
    });
    if let Some(e) = rows.error.into_inner() {
        return Err(e);
    }
    Ok(Outcome { stdout, code: 0 })
}

/// The device rows as a JSON list, built while it is written.
struct Rows<'r> {
    objects: &'r [Object],
    gates: &'r dra_core::gates::FeatureGates,
    keep: &'r dyn Fn(&DeviceRow) -> Result<bool, String>,
    error: RefCell<Option<String>>,
}

impl serde::Serialize for Rows<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        let mut seq = s.serialize_seq(None)?;
        let mut failed: Option<S::Error> = None;
        usage::for_each_device_row(self.objects, self.gates, &mut |row| {
            if failed.is_some() {
                return;
            }
            match (self.keep)(&row) {
                Ok(true) => failed = seq.serialize_element(&row).err(),
                Ok(false) => {}
                Err(e) => {
                    failed = Some(S::Error::custom(&e));
                    *self.error.borrow_mut() = Some(e);
                }
            }
        });
        match failed {
            Some(e) => Err(e),
            None => seq.end(),
        }
    }
}
