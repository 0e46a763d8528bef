//! The committed TypeScript bindings are exactly what the Rust commands generate today.

use crate::repo_root;

/// Fails when `ui/src/ipc/bindings.ts` is stale; `UPDATE_BINDINGS=1` (`make bindings`) rewrites it.
#[test]
fn typescript_bindings_are_fresh() {
    let committed_path = repo_root().join(plugboard_app::ipc::BINDINGS_PATH);
    let dir = tempfile::tempdir().expect("temp dir");
    let fresh_path = dir.path().join("bindings.ts");
    plugboard_app::ipc::specta_builder()
        .export(plugboard_app::ipc::typescript(), &fresh_path)
        .expect("export bindings");
    let fresh = std::fs::read_to_string(&fresh_path).expect("read fresh bindings");
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        std::fs::write(&committed_path, &fresh).expect("write bindings");
        return;
    }
    let committed = std::fs::read_to_string(&committed_path).unwrap_or_default();
    assert!(committed == fresh, "{} is stale: run `make bindings` and commit the result", committed_path.display());
}
