//! Down to the v1beta1 shape (`convert --to v1beta1`): a request's
//! `exactly` unwrapped, a device's fields but `name` under `basic`. The
//! result is checked by converting it back up (see `faithful`).

use super::*;

/// Down to the v1beta1 shape: a request's `exactly` unwrapped into the
/// request; a device's fields but `name` wrapped in `basic`.
pub(super) fn down_edits(src: &Source<'_>, obj: &Object) -> Result<Vec<Edit>, String> {
    let mut edits = Vec::new();
    match obj.kind {
        ObjectKind::ResourceClaim | ObjectKind::ResourceClaimTemplate => {
            let spec = if obj.kind == ObjectKind::ResourceClaim {
                obj.spec()
            } else {
                obj.spec().and_then(|s| s.get("spec"))
            };
            for r in spec
                .and_then(|s| s.get("devices"))
                .and_then(|d| d.get("requests"))
                .and_then(Node::as_seq)
                .unwrap_or_default()
            {
                let Some(exactly) = r.entry("exactly") else {
                    continue;
                };
                if src.is_flow(r) || src.is_flow(&exactly.value) {
                    flow_without_comments(src, r)?;
                    let mut parts = Vec::new();
                    for e in r.as_map().unwrap_or_default() {
                        if std::ptr::eq(e, exactly) {
                            parts.extend(
                                exactly
                                    .value
                                    .as_map()
                                    .unwrap_or_default()
                                    .iter()
                                    .map(|i| flow_text(src, i)),
                            );
                        } else {
                            parts.push(flow_text(src, e));
                        }
                    }
                    edits.push(replace_flow(src, r, &parts));
                    continue;
                }
                edits.push(unwrap_block(src, exactly, "exactly")?);
            }
        }
        ObjectKind::ResourceSlice => {
            for d in obj
                .spec()
                .and_then(|s| s.get("devices"))
                .and_then(Node::as_seq)
                .unwrap_or_default()
            {
                let entries = d.as_map().unwrap_or_default();
                let fields: Vec<&Entry> = entries.iter().filter(|e| e.key != "name").collect();
                if fields.is_empty() {
                    continue;
                }
                if src.is_flow(d) {
                    flow_without_comments(src, d)?;
                    let inner: Vec<String> = fields.iter().map(|e| flow_text(src, e)).collect();
                    let mut parts: Vec<String> = entries
                        .iter()
                        .filter(|e| e.key == "name")
                        .map(|e| flow_text(src, e))
                        .collect();
                    parts.push(format!("basic: {{{}}}", inner.join(", ")));
                    edits.push(replace_flow(src, d, &parts));
                    continue;
                }
                edits.extend(wrap_block(src, &fields, "basic")?);
            }
        }
        _ => {}
    }
    Ok(edits)
}

/// A block entry's mapping value moved up into its parent, the key gone.
fn unwrap_block(src: &Source<'_>, entry: &Entry, what: &str) -> Result<Edit, String> {
    let x = src.extent(entry);
    let inner = entry.value.as_map().unwrap_or_default();
    let first = inner.iter().map(|e| src.extent(e).col).min();
    let Some(first) = first.filter(|c| *c > x.col) else {
        return Err(format!(
            "`{what}` is not a block mapping here; convert it by hand"
        ));
    };
    let key_end = src.text[x.key..x.end]
        .find('\n')
        .map_or(x.end, |i| x.key + i + 1);
    if src.text[x.key..key_end].contains('#') {
        return Err(format!("a comment after `{what}:`; convert it by hand"));
    }
    let body = dedent(&src.text[key_end..x.end], first - x.col);
    let leading = &src.text[x.start..if x.on_dash_line {
        x.key
    } else {
        key_line_start(src, x.key)
    }];
    let text = if x.on_dash_line {
        body.trim_start_matches(' ').to_owned()
    } else {
        format!("{leading}{body}")
    };
    Ok(Edit {
        start: x.start,
        end: x.end,
        text,
    })
}

fn key_line_start(src: &Source<'_>, b: usize) -> usize {
    src.text[..b].rfind('\n').map_or(0, |i| i + 1)
}
