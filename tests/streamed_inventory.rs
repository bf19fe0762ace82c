//! An inventory file larger than a chunk is read and parsed piece by piece
//! (issue 37); stdin is read whole. The same text through both paths gives
//! the same answer, byte for byte, and the same error for a broken file.

mod support;

/// About 10.5 MB: more than one 8 MiB chunk, so the file is cut at least once.
fn big_inventory(broken: bool) -> String {
    let mut docs = vec![
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\nspec:\n  selectors:\n  - cel: {expression: device.driver == \"gpu.example.com\"}\n".to_owned(),
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: one-gpu, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu.example.com}\n".to_owned(),
    ];
    for n in 0..8_000 {
        let mut s = format!("# node {n}: ü\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: worker-{n}-gpu}}\nspec:\n  driver: gpu.example.com\n  nodeName: worker-{n}\n  pool: {{name: worker-{n}, generation: 1, resourceSliceCount: 1}}\n  devices:\n");
        for d in 0..8 {
            s.push_str(&format!("  - name: gpu-{d}\n    attributes:\n      model: {{string: A100}}\n      index: {{int: {d}}}\n    capacity:\n      memory: {{value: 80Gi}}\n"));
        }
        docs.push(s);
        docs.push(format!(
            "apiVersion: v1\nkind: Node\nmetadata:\n  name: worker-{n}\n  labels: {{zone: z{}}}\n",
            n % 3
        ));
    }
    if broken {
        docs.insert(
            12_000,
            "apiVersion: v1\nkind: Node\nmetadata:\n  name: broken\n  labels: {a: [1, 2}\n"
                .to_owned(),
        );
    }
    docs.join("---\n")
}

/// The answers through a file and through stdin, and the file's path.
fn through_file_and_stdin(
    name: &str,
    text: &str,
    args: &[&str],
) -> (std::process::Output, std::process::Output, String) {
    // A directory per test: the tests run at once in one process.
    let dir = support::ScratchDir::new(name);
    let path = dir.join("cluster.yaml");
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let mut file_args = args.to_vec();
    file_args.extend(["-f", p]);
    let mut stdin_args = args.to_vec();
    stdin_args.extend(["-f", "-"]);
    (
        support::run(&file_args),
        support::run_with_stdin(&stdin_args, Some(text.as_bytes())),
        p.to_owned(),
    )
}

#[test]
fn a_large_file_read_in_pieces_answers_as_one_read() {
    let text = big_inventory(false);
    assert!(
        text.len() > 9 << 20,
        "{} bytes: not over one chunk",
        text.len()
    );
    for args in [
        &["explain", "claim", "default/one-gpu", "-o", "json"][..],
        &["devices", "-o", "json", "-l", "zone=z1"][..],
    ] {
        let (file, stdin, _) = through_file_and_stdin("streamed-whole", &text, args);
        assert_eq!(file.status.code(), stdin.status.code(), "{args:?}");
        assert!(!file.stdout.is_empty(), "{args:?}: no answer");
        assert!(
            file.stdout == stdin.stdout,
            "{args:?}: the file read in pieces answers differently from stdin"
        );
    }
}

#[test]
fn a_large_broken_file_names_the_same_line_as_one_read() {
    let text = big_inventory(true);
    let (file, stdin, path) = through_file_and_stdin(
        "streamed-broken",
        &text,
        &["explain", "claim", "default/one-gpu"],
    );
    let file_err = String::from_utf8_lossy(&file.stderr).replace(&path, "<input>");
    let stdin_err = String::from_utf8_lossy(&stdin.stderr).replace("<stdin>", "<input>");
    // The line of the broken flow sequence, counted in the whole text.
    let line = text.lines().position(|l| l.contains("[1, 2}")).unwrap() + 1;
    assert!(
        file_err.contains(&format!("<input>:{line}: invalid YAML")),
        "{file_err:?} (exit {:?}); stdout {:?}",
        file.status.code(),
        String::from_utf8_lossy(&file.stdout)
            .chars()
            .take(300)
            .collect::<String>()
    );
    assert_eq!(file_err, stdin_err);
}

#[test]
fn a_repeated_key_is_read_as_kubectl_reads_it() {
    // kubectl's YAML-to-JSON conversion keeps a repeated key's last value
    // (sigs.k8s.io/yaml YAMLToJSON, not the strict variant): the claim asks
    // for the class that exists, and the file is no error.
    let text = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\nspec:\n  selectors:\n  - cel: {expression: device.driver == \"gpu.example.com\"}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: one-gpu, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: missing.example.com\n        deviceClassName: gpu.example.com\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: gpu.example.com\n  nodeName: worker-0\n  pool: {name: worker-0, generation: 1, resourceSliceCount: 1}\n  devices:\n  - name: gpu-0\n";
    let (file, stdin, _) = through_file_and_stdin(
        "repeated-key",
        text,
        &["explain", "claim", "default/one-gpu", "-o", "json"],
    );
    assert_eq!(file.stdout, stdin.stdout);
    let v: serde_json::Value = serde_json::from_slice(&file.stdout)
        .unwrap_or_else(|e| panic!("{e}: stderr {}", String::from_utf8_lossy(&file.stderr)));
    assert_eq!(v["verdict"]["schedulable"], true, "{v}");
}
