//! The verdict across nodes: grouping, timeouts, skipped pools.
use super::*;
use crate::allocate::{Reason, ReasonKind};

/// A request whose matching devices are held by `holder` on a node.
fn held(holder: &str) -> Outcome {
    let f = Funnel {
        claim: "default/train".into(),
        request: "gpu".into(),
        devices: 1,
        pass_class: 1,
        pass_request: 1,
        untainted: 1,
        free: 0,
        held_by: vec![holder.into()],
        needed: 1,
        ..Funnel::default()
    };
    Outcome::Unsatisfiable {
        reasons: Vec::new(),
        funnels: vec![f],
        constraints: Vec::new(),
    }
}

/// Issue 31, class 6: a holder's name in the words no longer splits the
/// nodes into one line each; they group by the kind and the request.
#[test]
fn causes_group_by_kind_and_subject_not_by_words() {
    let per_node: Vec<(String, Outcome)> = ["a", "b", "c"]
        .iter()
        .map(|n| (format!("node-{n}"), held(&format!("default/job-{n}"))))
        .collect();
    let v = Verdict::build(&per_node, &[], 0, true);
    assert_eq!(v.causes.len(), 1, "{:?}", v.causes);
    let c = &v.causes[0];
    assert_eq!(c.kind, CauseKind::InUse);
    assert_eq!(c.subject.as_deref(), Some("default/train/gpu"));
    assert_eq!(c.nodes, ["node-a", "node-b", "node-c"]);
    assert_eq!(v.json()["causes"][0]["kind"], "inUse");
    assert_eq!(v.json()["causes"][0]["subject"], "default/train/gpu");
    // The facts the words name, as fields (the group's first node).
    let facts = &v.json()["causes"][0]["facts"];
    assert_eq!(facts["heldBy"], serde_json::json!(["default/job-a"]));
    assert_eq!(facts["needed"], 1);
    assert_eq!(facts["notInUse"], 0);
    assert!(facts.get("taintSources").is_none(), "{facts}");
}

/// A filter timeout is told by its kind, not by its words: before 1.37
/// it only rules the node out, from 1.37 it aborts the attempt.
#[test]
fn a_timeout_is_known_by_its_kind() {
    let timeout = Outcome::Error {
        kind: ErrorKind::Timeout,
        error: "any words".into(),
        device: None,
        subject: None,
        search: None,
    };
    let per_node = vec![("node-a".to_owned(), timeout)];
    let before = Verdict::build(&per_node, &[], 0, false);
    assert!(before.fatal.is_none());
    assert_eq!(before.causes[0].kind, CauseKind::FilterTimeout);
    let after = Verdict::build(&per_node, &[], 0, true);
    assert_eq!(
        after.fatal.as_ref().map(|f| f.kind),
        Some(ErrorKind::Timeout)
    );
    assert_eq!(after.json()["fatalError"]["kind"], "timeout");
}

/// A pool the scheduler skips is the cause when it hides the devices a
/// request needs: known by the reason's kind.
#[test]
fn a_skipped_pool_is_the_cause() {
    let f = Funnel {
        claim: "default/train".into(),
        request: "gpu".into(),
        needed: 2,
        ..Funnel::default()
    };
    let pool = Reason::new(
        ReasonKind::PoolIncomplete,
        Some("gpu.example.com/node-a".into()),
        "resource pool gpu.example.com/node-a is incomplete".into(),
    );
    let b = blocking(&[pool], &[f], &[]);
    assert_eq!(b.kind, CauseKind::PoolSkipped);
    assert_eq!(b.subject.as_deref(), Some("gpu.example.com/node-a"));
}
