//! Property: `capacity pod`'s copies under a DoNotSchedule zone spread
//! constraint (dra_core::topology_spread::TopologySpread::place_copies)
//! are what placing them one at a time as the scheduler filters allows:
//! within each node's room, every placed copy within maxSkew of the
//! emptiest zone, and no more copies possible where room is left.

use dra_core::model::{Object, ObjectKind};
use dra_core::pod_affinity::Existing;
use dra_core::topology_spread::TopologySpread;
use proptest::prelude::*;

const NODES: &str = "
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {zone: a}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {zone: a}}
---
apiVersion: v1
kind: Node
metadata: {name: n3, labels: {zone: b}}
---
apiVersion: v1
kind: Node
metadata: {name: bare}
";

fn text(bound: usize, skew: i64) -> String {
    let mut t = NODES.to_owned();
    for i in 0..bound {
        t.push_str(&format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: b{i}, namespace: ml, labels: {{app: web}}}}\nspec: {{nodeName: n1, containers: [{{name: c}}]}}\n"
        ));
    }
    t.push_str(&format!(
        "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: new, namespace: ml, labels: {{app: web}}}}\nspec:\n  containers: [{{name: c}}]\n  topologySpreadConstraints:\n  - {{maxSkew: {skew}, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {{matchLabels: {{app: web}}}}}}\n"
    ));
    t
}

proptest! {
    #[test]
    fn copies_respect_room_skew_and_fill(
        room in proptest::collection::vec(0usize..6, 4),
        bound in 0usize..4,
        skew in 1i64..3,
    ) {
        let objects = dra_core::model::parse_file(0, &text(bound, skew), dra_core::yaml::Limits::default()).objects;
        let existing = Existing::of(&objects);
        let pod = objects
            .iter()
            .find(|o| o.kind == ObjectKind::Workload && o.name() == Some("new"))
            .unwrap();
        let nodes: Vec<&Object> = objects.iter().filter(|o| o.kind == ObjectKind::Node).collect();
        let rooms: Vec<(&Object, usize)> = nodes.iter().copied().zip(room.clone()).collect();
        let state = TopologySpread::prefilter(pod, &objects, &existing).unwrap();
        let placed = state.place_copies(&rooms).unwrap();
        for (p, most) in placed.iter().zip(&room) {
            prop_assert!(p <= most);
        }
        // `bare` has no zone label: no domain, no copy.
        prop_assert_eq!(placed[3], 0);
        let a = (bound + placed[0] + placed[1]) as i64;
        let b = placed[2] as i64;
        if placed[0] + placed[1] > 0 {
            prop_assert!(a <= b + skew, "{placed:?}");
        }
        if placed[2] > 0 {
            prop_assert!(b <= a + skew, "{placed:?}");
        }
        // Where room is left, the next copy would break the skew.
        let min = a.min(b);
        if placed[0] < room[0] || placed[1] < room[1] {
            prop_assert!(a + 1 - min > skew, "{placed:?} room {room:?}");
        }
        if placed[2] < room[2] {
            prop_assert!(b + 1 - min > skew, "{placed:?} room {room:?}");
        }
    }
}
