//! The list-response decoder: any body is a page of objects or a decode
//! error, never a panic; every object it yields is named by its kind.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    for (kind, metadata_only) in [("ResourceSlice", false), ("Node", true)] {
        if let Ok((objects, _)) =
            kubectl_dra::cluster::decode_page(data, 0, "resource.k8s.io/v1", kind, metadata_only)
        {
            assert!(objects.len() <= data.len());
        }
    }
});
