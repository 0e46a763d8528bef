//! Chooses how WebKitGTK draws the window before GTK starts: without a GPU render node it turns off accelerated
//! compositing, which otherwise runs through Mesa's software OpenGL (llvmpipe) and burns seconds of CPU on every
//! page render. It must never override a choice the person made in the environment, and never run after a thread
//! exists (it writes the process environment).

use std::path::Path;

/// WebKitGTK's switch: when set, pages are drawn without accelerated (OpenGL) compositing.
const DISABLE_COMPOSITING: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";
/// Where Linux exposes GPU render nodes (`renderD128`, …); absent on VMs, containers and Xvfb-only machines.
const DRI_DIR: &str = "/dev/dri";

/// Turns accelerated compositing off where OpenGL could only be software. Call it first thing in `main`, before
/// logging or any runtime starts a thread.
pub fn prefer_cpu_drawing_without_a_gpu() {
    if cfg!(target_os = "linux")
        && std::env::var_os(DISABLE_COMPOSITING).is_none()
        && !has_render_node(Path::new(DRI_DIR))
    {
        // SAFETY: called from `main` before any other thread exists, so nothing reads the environment concurrently.
        #[allow(unsafe_code)]
        unsafe {
            std::env::set_var(DISABLE_COMPOSITING, "1");
        }
    }
}

/// Whether `dri` holds a GPU render node. A card node alone (`card0`, e.g. a display-only device) does not count:
/// Mesa renders through a render node, and falls back to llvmpipe without one.
fn has_render_node(dri: &Path) -> bool {
    std::fs::read_dir(dri)
        .is_ok_and(|entries| entries.flatten().any(|entry| entry.file_name().to_string_lossy().starts_with("renderD")))
}

#[cfg(test)]
mod tests {
    use super::has_render_node;

    /// A missing /dev/dri, or one with only a card node, means software OpenGL; a renderD node means a GPU.
    #[test]
    fn a_gpu_is_a_render_node() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!has_render_node(&dir.path().join("absent")));
        std::fs::write(dir.path().join("card0"), "").unwrap();
        assert!(!has_render_node(dir.path()));
        std::fs::write(dir.path().join("renderD128"), "").unwrap();
        assert!(has_render_node(dir.path()));
    }
}
