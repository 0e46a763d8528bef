//! Copy-as-CLI: the `plugboard call` line that repeats a call from a terminal, quoted for a POSIX shell. It only
//! builds text; the arguments it quotes are the history's (already redacted) ones.

/// `plugboard call SERVER TOOL --args '<json>'`.
pub fn cli_command(server: &str, tool: &str, arguments: &str) -> String {
    format!("plugboard call {} {} --args {}", quote(server), quote(tool), quote(arguments))
}

/// One shell word: left bare when it holds only characters no POSIX shell treats specially, else single-quoted
/// (inside single quotes nothing is special but `'` itself, written as `'\''`).
pub fn quote(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | ':' | '@' | '%' | '+' | ',');
    if !word.is_empty() && word.chars().all(safe) {
        return word.to_owned();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `line` with `plugboard` swapped for a printer of its arguments, in `sh`, and returns the words it got.
    fn words_after_shell(line: &str) -> Vec<String> {
        let rest = line.strip_prefix("plugboard ").expect("starts with plugboard");
        let output =
            std::process::Command::new("sh").arg("-c").arg(format!("printf '%s\\0' {rest}")).output().expect("sh runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let text = String::from_utf8(output.stdout).expect("utf-8");
        text.split_terminator('\0').map(str::to_owned).collect()
    }

    /// Whatever the server, tool and arguments hold (quotes, newlines, `$`, backticks, globs, Unicode), the shell
    /// hands `plugboard` exactly those words back.
    #[test]
    fn lines_round_trip_through_a_posix_shell() {
        let cases = [
            ("github", "list_issues", r#"{"repo":"plugboard"}"#),
            ("my server", "it's", r#"{"q":"it's \"quoted\""}"#),
            ("a;b", "x|y&z", "{\"text\":\"line one\nline two\ttab\"}"),
            ("$HOME", "`id`", r#"{"cmd":"$(rm -rf /) `whoami` ${PATH} \\ !"}"#),
            ("*", "?[a]", r#"{"glob":"*.rs ~ #comment"}"#),
            ("ünï", "emoji", r#"{"text":"日本語 🎉 ''' end'"}"#),
            ("", "", "{}"),
        ];
        for (server, tool, arguments) in cases {
            let line = cli_command(server, tool, arguments);
            assert_eq!(words_after_shell(&line), ["call", server, tool, "--args", arguments], "line: {line}");
        }
    }

    /// Plain names stay readable (no quotes) and JSON is always quoted.
    #[test]
    fn plain_words_are_left_bare() {
        assert_eq!(cli_command("github", "list_issues", "{}"), "plugboard call github list_issues --args '{}'");
        assert_eq!(quote("it's"), r"'it'\''s'");
    }
}
