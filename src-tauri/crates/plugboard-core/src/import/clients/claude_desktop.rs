//! Claude Desktop's `claude_desktop_config.json`: an `mcpServers` object of local commands (and, when people add
//! them by hand, remote urls). Windows has two homes for it: the classic installer's and the MSIX package's.

use std::path::PathBuf;

use super::common::entry::{Draft, EntryProblem, EntryReader};
use super::common::parse_mcp_servers_json;
use super::common::paths::{app_config_dir, local_app_data};
use super::common::transport::{BareUrl, read_launch, read_type};
use crate::import::{ClientSource, Os, ParseError, ParsedEntry, PathContext};

pub const SOURCE: ClientSource = ClientSource { id: "claude-desktop", label: "Claude Desktop", default_paths, parse };

const FILE: &str = "claude_desktop_config.json";
/// The Microsoft Store package's family name; its roaming data is virtualised under `LocalCache`.
const MSIX_FAMILY: &str = "Claude_pzs8sxrjxfjjc";

fn default_paths(ctx: &PathContext) -> Vec<PathBuf> {
    let mut paths = vec![app_config_dir(ctx).join("Claude").join(FILE)];
    if ctx.os == Os::Windows {
        // A packaged app reads the real %APPDATA% file when it exists and its private copy otherwise, so the real
        // one comes first.
        let package = local_app_data(ctx).join("Packages").join(MSIX_FAMILY);
        paths.push(package.join("LocalCache").join("Roaming").join("Claude").join(FILE));
    }
    paths
}

fn parse(text: &str) -> Result<Vec<ParsedEntry>, ParseError> {
    parse_mcp_servers_json(text, entry)
}

fn entry(_name: &str, mut r: EntryReader) -> Result<Draft, EntryProblem> {
    let declared = read_type(&mut r)?;
    let url = r.string("url")?;
    Ok(read_launch(&mut r, declared.as_deref(), url, BareUrl::Probe)?.with_rest(r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::paths::testing::*;
    use crate::import::clients::common::testing::*;

    const CONFIG: &str = fixture!("claude-desktop/claude_desktop_config.json");

    /// A typical config: commands with args and env, a remote url to probe, and bad entries beside good ones.
    #[test]
    fn parses_a_typical_config() {
        let entries = parse(CONFIG).expect("parses");
        assert_eq!(
            names(&entries),
            ["filesystem", "github", "sqlite", "brave-search", "notes-remote", "half-written", "wrong-args"]
        );
        let fs = &server(&entries, "filesystem").server;
        assert_eq!((fs.kind.as_deref(), fs.command.as_deref()), (Some("stdio"), Some("npx")));
        assert_eq!(fs.args.as_ref().map(Vec::len), Some(4));
        assert_eq!(fs.origin, None);
        let github = &server(&entries, "github").server;
        assert!(github.env.as_ref().is_some_and(|e| e.contains_key("GITHUB_PERSONAL_ACCESS_TOKEN")));
        let sqlite = &server(&entries, "sqlite").server;
        assert_eq!(sqlite.args.as_ref().map(|a| a[2].as_str()), Some(r"C:\Users\ada\AppData\Local\notes.db"));
        // Keys Claude Desktop does not define survive in `other`.
        assert_eq!(server(&entries, "brave-search").server.other.get("disabled"), Some(&serde_json::json!(false)));
        let remote = &server(&entries, "notes-remote").server;
        assert_eq!((remote.kind.as_deref(), remote.url.as_deref()), (None, Some("https://notes.example.com/mcp")));
        assert!(invalid(&entries, "half-written").contains("neither"));
        assert!(invalid(&entries, "wrong-args").contains("\"args\" must be a list"));
    }

    /// The same file saved on Windows (BOM, CRLF) or hand-edited with comments parses the same.
    #[test]
    fn windows_and_jsonc_variants_parse_the_same() {
        let plain = parse(CONFIG).expect("parses");
        assert_eq!(parse(&bom_crlf(CONFIG)).expect("bom+crlf"), plain);
        let commented = CONFIG.replacen("{", "{ // edited by hand\n", 1).replace("\"Alt+Space\"", "\"Alt+Space\",");
        assert_eq!(parse(&commented).expect("jsonc"), plain);
    }

    /// A file that is not JSON at all is one error with its position; a non-object `mcpServers` is one error.
    #[test]
    fn broken_files_are_errors() {
        let err = parse("{\n  \"mcpServers\": {\n    \"a\": { \"command\": \"npx\" ]\n  }\n}").expect_err("broken");
        assert_eq!(err.position.map(|(line, _)| line), Some(3), "{err}");
        let err = parse(r#"{ "mcpServers": ["a"] }"#).expect_err("list");
        assert!(err.message.contains("\"mcpServers\" must be an object"), "{err}");
        assert_eq!(parse(r#"{ "globalShortcut": "" }"#), Ok(vec![]));
    }

    /// Linux honours XDG_CONFIG_HOME; macOS uses Application Support; Windows lists %APPDATA% then the MSIX copy.
    #[test]
    fn default_paths_per_os() {
        assert_eq!(default_paths(&linux()), [p("/home/ada", &[".config", "Claude", FILE])]);
        assert_eq!(default_paths(&linux_xdg()), [p("/home/ada/.xdg", &["Claude", FILE])]);
        assert_eq!(default_paths(&macos()), [p("/Users/ada", &["Library", "Application Support", "Claude", FILE])]);
        assert_eq!(
            default_paths(&windows()),
            [
                p(r"C:\Users\ada\AppData\Roaming", &["Claude", FILE]),
                p(
                    r"C:\Users\ada\AppData\Local",
                    &["Packages", "Claude_pzs8sxrjxfjjc", "LocalCache", "Roaming", "Claude", FILE]
                ),
            ]
        );
    }
}
