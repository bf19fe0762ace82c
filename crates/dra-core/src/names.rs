//! Replacing an object's name in text where it stands whole: `worker-1`
//! in `worker-1/gpu-0`, not in `worker-10`.

/// Whether `c` may be part of a Kubernetes object name.
fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '.'
}

/// `text` with every whole occurrence of `from` replaced by `to`.
pub fn replace_whole(text: &str, from: &str, to: &str) -> String {
    if from.is_empty() || from == to {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let before = match i {
            0 => out.chars().last(),
            _ => rest[..i].chars().last(),
        };
        let after = rest[i + from.len()..].chars().next();
        out.push_str(&rest[..i]);
        if before.is_some_and(name_char) || after.is_some_and(name_char) {
            out.push_str(from);
        } else {
            out.push_str(to);
        }
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::replace_whole;

    #[test]
    fn only_whole_names_are_replaced() {
        assert_eq!(
            replace_whole(
                "ns/train-1 ns/train-10 train-1-gpus \"train-1\"",
                "train-1",
                "infer-2"
            ),
            "ns/infer-2 ns/train-10 train-1-gpus \"infer-2\""
        );
    }
}
