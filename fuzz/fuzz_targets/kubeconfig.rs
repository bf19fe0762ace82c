//! The kubeconfig loader: any text is a kubeconfig or a clear error, never
//! a panic; no exec plugin runs and nothing is sent.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = kubectl_dra::cluster::kubeconfig_from_text(&text) {
        assert!(!e.to_string().is_empty());
    }
});
