//! `RelPath`, the only path type the contained reader accepts below a root: it parses
//! untrusted names (session index `path` fields, directory entries, configured locations).
//!
//! Checks: no panic; a string is accepted exactly when it is non-empty, has no NUL and no
//! empty, `.` or `..` component (so it can never be absolute or climb); the path keeps its
//! text; `join` accepts exactly one more normal component.
#![no_main]
#![forbid(unsafe_code)]

use dotaios_contained::RelPath;
use dotaios_fuzz::fields;
use libfuzzer_sys::fuzz_target;

fn acceptable(path: &str) -> bool {
    !path.is_empty()
        && !path.contains('\0')
        && path
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..")
}

fuzz_target!(|text: &str| {
    let parts = fields(text, 2);
    for candidate in [text, parts[0], parts[1]] {
        match RelPath::new(candidate) {
            Ok(path) => {
                assert!(acceptable(candidate), "accepted {candidate:?}");
                assert_eq!(path.as_str(), candidate);
                assert_eq!(path.to_string(), candidate);
                assert!(!path.as_str().starts_with('/'));
                assert_eq!(path.components().collect::<Vec<_>>().join("/"), candidate);
                assert_eq!(Some(path.file_name()), candidate.rsplit('/').next());
            }
            Err(_) => assert!(!acceptable(candidate), "refused {candidate:?}"),
        }
    }
    if let Ok(base) = RelPath::new(parts[0]) {
        let name = parts[1];
        match base.join(name) {
            Ok(joined) => {
                assert!(acceptable(name) && !name.contains('/'));
                assert_eq!(joined.as_str(), format!("{}/{name}", base.as_str()));
                assert_eq!(RelPath::new(joined.as_str()).as_ref(), Ok(&joined));
            }
            Err(_) => assert!(!acceptable(name) || name.contains('/')),
        }
    }
});
