//! DRA-A001: an older resource.k8s.io version.
use super::prelude::*;

declare_rule! {
    id: "DRA-A001", name: "deprecated-api-version", severity: Warning, origin: Decode,
    summary: "A resource.k8s.io alpha or beta version: off by default, and deprecated from the release that deprecates it",
    docs: "resource.k8s.io/v1 is served from Kubernetes 1.34 (DeviceTaintRule from 1.37). Alpha and beta versions are compiled in but off by default: kube-apiserver serves them only with `--runtime-config=resource.k8s.io/VERSION=true`. v1beta1 is deprecated from 1.35 and removed in 1.38, v1beta2 deprecated from 1.36 and removed in 1.39 (k8s.io/api prerelease-lifecycle); the message says \"deprecated\" only from the deprecating release on. v1beta2 has the v1 shape; in v1beta1 device fields sit under `basic` and request fields directly in the request (v1 puts them under `exactly`). kubectl-dra checks such objects after converting them to v1, so field paths in findings are v1 paths. A version the target does not serve at all is DRA-A002.",
    example: "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\n",
    check: Check::Loader,
    fix: &crate::fix::builders::CONVERT,
}
