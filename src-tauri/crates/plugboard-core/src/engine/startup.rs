//! Why an engine could not start, as a front end shows it to a person: what is wrong and what to do about it. The
//! window opens with this instead of quitting without a word when, say, its config folder cannot be created; the
//! CLI says the same. It must never hide the failing path, and never suggest deleting anything.

use std::path::Path;

use serde::Serialize;

use super::EngineError;
use crate::config::ConfigError;
use crate::paths::{CONFIG_DIR_ENV, DATA_DIR_ENV};

/// What stopped the engine, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct StartupProblem {
    /// What is wrong, naming the file or folder.
    pub what: String,
    /// What the person can do about it.
    pub remedy: String,
}

impl StartupProblem {
    /// The problem `error` (from [`super::Engine::open`] or [`super::Engine::follow_config`]) describes.
    pub fn of(error: &EngineError) -> Self {
        let what = error.to_string();
        let remedy = match error {
            EngineError::Watch { path, .. } | EngineError::Config(ConfigError::Unreadable { path, .. }) => {
                folder_remedy(path.parent().unwrap_or(path))
            }
            _ => "Look at the message above, fix what it names, then start Plugboard again.".to_owned(),
        };
        Self { what, remedy }
    }
}

fn folder_remedy(folder: &Path) -> String {
    format!(
        "Make sure {} is a folder you can write to (a file of that name, or a folder you do not own, stops \
         Plugboard), then start Plugboard again. To keep Plugboard's files elsewhere, set {CONFIG_DIR_ENV} (for \
         servers.json) or {DATA_DIR_ENV} (for everything else) to a folder you own.",
        folder.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, EngineOptions, PersonAnswers};
    use crate::secrets::Fallback;
    use crate::trust::Approvals;

    fn options(config_dir: &Path, data_dir: &Path) -> EngineOptions {
        EngineOptions {
            config_path: config_dir.join("servers.json"),
            secrets: Fallback::chosen(false),
            person: PersonAnswers::Declined,
            approvals: Approvals::at(data_dir.join("trust.json")),
            log_scrub: Default::default(),
            history_check: Default::default(),
        }
    }

    /// A config folder that cannot be made (a file stands where it should be) is a typed error naming the file,
    /// and the problem shown for it names the folder and what to do.
    #[test]
    fn an_unusable_config_folder_is_named_with_a_remedy() {
        let dir = tempfile::tempdir().expect("dir");
        let in_the_way = dir.path().join("plugboard");
        std::fs::write(&in_the_way, "a file where the folder should be").expect("write");
        let Err(error) = Engine::open(options(&in_the_way, dir.path())) else { panic!("the engine opened") };
        assert!(matches!(error, EngineError::Config(ConfigError::Unreadable { .. })), "{error:?}");
        let problem = StartupProblem::of(&error);
        assert!(problem.what.contains(&in_the_way.join("servers.json").display().to_string()), "{problem:?}");
        assert!(problem.remedy.contains(&format!("Make sure {} is a folder", in_the_way.display())), "{problem:?}");
        assert!(problem.remedy.contains(CONFIG_DIR_ENV), "{problem:?}");
    }

    /// Following the files fails (the data folder cannot be created, so the approvals cannot be watched) with a
    /// typed error naming the file, not a quiet exit; the problem names the data folder.
    #[test]
    fn a_watcher_that_cannot_start_is_named_with_a_remedy() {
        let dir = tempfile::tempdir().expect("dir");
        let in_the_way = dir.path().join("data");
        std::fs::write(&in_the_way, "a file where the folder should be").expect("write");
        let engine = Engine::open(options(&dir.path().join("config"), &in_the_way)).expect("engine");
        let Err(error) = engine.follow_config() else { panic!("the watchers started") };
        assert!(matches!(&error, EngineError::Watch { path, .. } if path.starts_with(&in_the_way)), "{error:?}");
        let problem = StartupProblem::of(&error);
        assert!(problem.what.contains("trust.json"), "{problem:?}");
        assert!(problem.remedy.contains(&in_the_way.display().to_string()), "{problem:?}");
    }
}
