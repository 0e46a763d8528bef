//! `plugboard status | tools | call` against the real reference server, as a person runs them in a terminal.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::{
    Sandbox, assert_gone_within, assert_no_process_with, copy_executable, everything, stderr, stdout, write_executable,
};

/// status shows a working server ready with its tool count and a broken one failed with the reason, and logs to the
/// data dir; tools lists the exposed names; call prints the result; and no server process outlives any of these
/// commands.
#[test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
fn status_tools_and_call_from_the_terminal() {
    let sandbox = Sandbox::new();
    let marker = format!("engine-cli-marker-{}", std::process::id());
    let added = sandbox.run(&["add", "everything", "--", &everything(), "stdio", &marker]);
    assert!(added.status.success(), "{}", stderr(&added));
    assert!(sandbox.run(&["add", "broken", "--", "plugboard-no-such-program"]).status.success());
    sandbox.approve_all();

    let status = sandbox.run(&["status"]);
    assert!(status.status.success(), "{}", stderr(&status));
    let text = stdout(&status);
    let line = |name: &str| text.lines().find(|l| l.starts_with(name)).unwrap_or_default().to_owned();
    assert!(line("everything").contains("ready") && line("everything").contains("tool(s)"), "{text}");
    assert!(line("broken").contains("failed") && line("broken").contains("plugboard-no-such-program"), "{text}");
    assert_no_process_with(&marker);
    // Its log lines went to the one daily file in the data dir, opened by the first of them.
    let logs: Vec<_> = std::fs::read_dir(sandbox.data_dir().join("logs")).expect("log dir").flatten().collect();
    assert_eq!(logs.len(), 1, "one rotating log file: {logs:?}");
    let log = std::fs::read_to_string(logs[0].path()).expect("the log file");
    assert!(log.contains("launched stdio server"), "{log}");

    let tools = sandbox.run(&["tools", "everything"]);
    assert!(tools.status.success(), "{}", stderr(&tools));
    assert!(
        stdout(&tools).lines().any(|l| l.contains("echo") && l.contains("mcp__everything__echo")),
        "{}",
        stdout(&tools)
    );
    assert_no_process_with(&marker);

    let call = sandbox.run(&["call", "everything", "echo", "--args", r#"{"message":"hi from the CLI"}"#]);
    assert!(call.status.success(), "{}", stderr(&call));
    assert_eq!(stdout(&call).trim(), "Echo: hi from the CLI");
    assert_no_process_with(&marker);

    let unknown = sandbox.run(&["call", "everything", "no-such-tool"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(stderr(&unknown).contains("no tool \"no-such-tool\""), "{}", stderr(&unknown));
    let bad_args = sandbox.run(&["call", "everything", "echo", "--args", "[1,2]"]);
    assert_eq!(bad_args.status.code(), Some(1));
    assert!(stderr(&bad_args).contains("JSON object"), "{}", stderr(&bad_args));
    assert_no_process_with(&marker);
}

/// `plugboard call` starts its server's keeper as it starts, before it has parsed its arguments (with a global flag
/// before `call`, once they are), and the engine's start then orders no second one: a call of a stdio server starts
/// one keeper, which runs the server; a call of a remote server lets its keeper go unused. No keeper outlives either
/// command. (The keeper beside the copied binary is a script that notes each start, then becomes the real keeper.)
#[test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
fn a_call_starts_one_keeper_and_leaves_none() {
    let sandbox = Sandbox::new();
    let bin = tempfile::tempdir().expect("bin dir");
    let cli = bin.path().join("plugboard");
    copy_executable(Path::new(env!("CARGO_BIN_EXE_plugboard")), &cli);
    let keeper = Path::new(env!("CARGO_BIN_EXE_plugboard")).with_file_name(plugboard_core::transport::KEEPER_BINARY);
    assert!(keeper.exists(), "{} is missing: cargo build -p plugboard-core --bins", keeper.display());
    // Copied beside it, so that the keeper's command line names this folder once the script has become it.
    let real_keeper = bin.path().join("the-real-keeper");
    copy_executable(&keeper, &real_keeper);
    let starts = bin.path().join("keeper-starts");
    let script = format!(
        "#!/bin/sh\n# Notes the start, then runs the real keeper in this process.\necho started >> '{}'\nexec '{}' \"$@\"\n",
        starts.display(),
        real_keeper.display()
    );
    write_executable(&bin.path().join(plugboard_core::transport::KEEPER_BINARY), &script);
    let started = || std::fs::read_to_string(&starts).unwrap_or_default().lines().count();
    let marker = bin.path().display().to_string();

    assert!(sandbox.run(&["add", "everything", "--", &everything(), "stdio"]).status.success());
    assert!(sandbox.run(&["add", "remote", "--url", "http://127.0.0.1:9/mcp", "--transport", "http"]).status.success());
    sandbox.approve_all();
    let call = sandbox.command_of(&cli, &["call", "everything", "echo", "--args", r#"{"message":"hi"}"#]).output();
    let call = call.expect("run the copy");
    assert!(call.status.success(), "{}", stderr(&call));
    assert_eq!(stdout(&call).trim(), "Echo: hi");
    assert_eq!(started(), 1, "one keeper for one stdio server");
    assert_gone_within(&marker, Duration::from_secs(5));

    // A global flag before `call`: the call is known only once its arguments are parsed, and orders one keeper then.
    let flagged = ["--insecure-plaintext-secrets", "call", "everything", "echo", "--args", r#"{"message":"hi"}"#];
    let flagged = sandbox.command_of(&cli, &flagged).output().expect("run the copy");
    assert!(flagged.status.success(), "{}", stderr(&flagged));
    assert_eq!(stdout(&flagged).trim(), "Echo: hi");
    assert_eq!(started(), 2, "one keeper for each call");
    assert_gone_within(&marker, Duration::from_secs(5));

    let remote = sandbox.command_of(&cli, &["call", "remote", "anything"]).output().expect("run the copy");
    assert_eq!(remote.status.code(), Some(1), "{}", stderr(&remote));
    assert!(started() <= 3, "at most the one started ahead: {}", started());
    assert_gone_within(&marker, Duration::from_secs(5));
}

/// `plugboard call` records each call in the console's history under the data dir, its arguments redacted and its
/// copy-as-CLI line ready (a token in the echoed result is redacted too); a failed call is recorded as well.
#[test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
fn call_lands_in_the_history() {
    use plugboard_core::console::{CallOutcome, CallStatus, History};
    let sandbox = Sandbox::new();
    assert!(sandbox.run(&["add", "everything", "--", &everything(), "stdio"]).status.success());
    sandbox.approve_all();
    let token = format!("ghp_{}", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8");
    let args = format!(r#"{{"message":"it's {token}"}}"#);
    let call = sandbox.run(&["call", "everything", "echo", "--args", &args]);
    assert!(call.status.success(), "{}", stderr(&call));
    // The command exits without closing the history: its row stays in the WAL, which is not yet due to be copied
    // into the file, and which the next open reads back.
    let wal = std::fs::metadata(sandbox.data_dir().join("history.sqlite3-wal")).map_or(0, |m| m.len());
    assert!(wal > 0 && wal < plugboard_core::console::history::WRITE_BACK_AT_BYTES, "the WAL after a call: {wal}");
    let unknown = sandbox.run(&["call", "everything", "no-such-tool"]);
    assert_eq!(unknown.status.code(), Some(1));

    let history = History::open(&sandbox.data_dir().join("history.sqlite3")).expect("the CLI wrote the history");
    let page = history.page("everything", None, 10).expect("page");
    let statuses: Vec<CallStatus> = page.entries.iter().map(|e| e.status).collect();
    assert_eq!(statuses, [CallStatus::Failed, CallStatus::Ok]);
    let entry = history.get(page.entries[1].id).expect("entry");
    assert_eq!(entry.arguments, r#"{"message":"it's [redacted]"}"#);
    assert_eq!(entry.cli_command, r#"plugboard call everything echo --args '{"message":"it'\''s [redacted]"}'"#);
    let CallOutcome::Result { is_error: false, result, .. } = &entry.outcome else { panic!("{:?}", entry.outcome) };
    assert!(result.contains("Echo: it's [redacted]") && !result.contains(&token), "{result}");
}

/// A history whose pages are damaged (its header sound) does not cost the call: `plugboard call` prints the result,
/// warns that the call is not in the history and why, and leaves the file where it is for the window to set aside.
#[test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
fn a_damaged_history_costs_the_record_not_the_call() {
    let sandbox = Sandbox::new();
    assert!(sandbox.run(&["add", "everything", "--", &everything(), "stdio"]).status.success());
    sandbox.approve_all();
    let path = sandbox.data_dir().join("history.sqlite3");
    let bytes = plugboard_core::test_support::history_with_damaged_pages(&path);

    let call = sandbox.run(&["call", "everything", "echo", "--args", r#"{"message":"still answered"}"#]);
    assert!(call.status.success(), "{}", stderr(&call));
    assert_eq!(stdout(&call).trim(), "Echo: still answered");
    assert!(stderr(&call).contains("not in the history: the call history is damaged"), "{}", stderr(&call));
    assert_eq!(std::fs::read(&path).expect("left in place"), bytes);
}

/// doctor walks a working server to the end, and for broken ones names the failing step and what to do.
#[test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
fn doctor_names_the_failing_step() {
    let sandbox = Sandbox::new();
    let marker = format!("doctor-marker-{}", std::process::id());
    assert!(sandbox.run(&["add", "good", "--", &everything(), "stdio", &marker]).status.success());
    assert!(sandbox.run(&["add", "missing", "--", "plugboard-no-such-program"]).status.success());
    assert!(
        sandbox.run(&["add", "refused", "--url", "http://127.0.0.1:9/mcp", "--transport", "http"]).status.success()
    );
    assert!(
        sandbox
            .run(&[
                "add",
                "nosecret",
                "--url",
                "http://127.0.0.1:9/mcp",
                "--header",
                "Authorization=Bearer ${secret:token}"
            ])
            .status
            .success()
    );

    sandbox.approve_all();
    let good = sandbox.run(&["doctor", "good"]);
    assert!(good.status.success(), "{}\n{}", stdout(&good), stderr(&good));
    assert!(
        stdout(&good).lines().any(|l| l.starts_with("ok") && l.contains("start and handshake")),
        "{}",
        stdout(&good)
    );
    assert_no_process_with(&marker);

    let failing = |name: &str, step: &str, hint: &str| {
        let out = sandbox.run(&["doctor", name]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stdout(&out));
        let text = stdout(&out);
        assert!(text.lines().any(|l| l.starts_with("FAIL") && l.contains(step)), "{name}: {text}");
        assert!(text.contains(hint), "{name}: {text}");
    };
    failing("missing", "program", "what to do: Install it, or write its full path in \"command\"");
    failing("refused", "tcp", "is the server running");
    failing("nosecret", "references", "plugboard secret set nosecret token");
}

/// A `required` server that cannot start makes `status` fail with its name and reason; an optional one does not.
#[test]
fn required_server_failure_stops_start_up() {
    let sandbox = Sandbox::new();
    assert!(sandbox.run(&["add", "optional", "--", "plugboard-no-such-program"]).status.success());
    sandbox.approve_all();
    let optional = sandbox.run(&["status"]);
    assert!(optional.status.success(), "{}", stderr(&optional));

    let config = sandbox.config_dir().join("servers.json");
    let text = std::fs::read_to_string(&config).expect("config");
    let mut json: serde_json::Value = serde_json::from_str(&text).expect("json");
    json["mcpServers"]["optional"]["required"] = serde_json::Value::Bool(true);
    std::fs::write(&config, json.to_string()).expect("write");
    let required = sandbox.run(&["status"]);
    assert_eq!(required.status.code(), Some(1), "{}", stdout(&required));
    let err = stderr(&required);
    assert!(err.contains("optional is required") && err.contains("plugboard-no-such-program"), "{err}");
}

/// Nothing runs before approval: `status` says the server awaits it (and how to give it) without starting it;
/// `approve` with no terminal and no `--yes` refuses and approves nothing, and a call ends saying so; `--yes`
/// approves, and then it runs.
#[test]
fn a_server_runs_only_once_approved() {
    let sandbox = Sandbox::new();
    let marker = sandbox.data_dir().join("ran");
    let script = format!("echo ran >> '{}'", marker.display());
    assert!(sandbox.run(&["add", "marked", "--", "/bin/sh", "-c", &script]).status.success());

    let status = sandbox.run(&["status"]);
    assert!(status.status.success(), "{}", stderr(&status));
    assert!(
        stdout(&status).contains("needs approval") && stdout(&status).contains("plugboard approve marked"),
        "{}",
        stdout(&status)
    );
    assert!(!marker.exists(), "it ran before it was approved");

    let unasked = sandbox.run_with_stdin(&["approve", "marked"], "y\n");
    assert!(!unasked.status.success(), "approved without a terminal: {}", stdout(&unasked));
    let shown = stdout(&unasked);
    assert!(shown.contains("runs: /bin/sh -c ") && shown.contains("echo ran >>"), "the command line is shown: {shown}");
    assert!(stderr(&unasked).contains("--yes"), "{}", stderr(&unasked));
    let _ = sandbox.run(&["status"]);
    assert!(!marker.exists(), "it ran after a refused approval");

    // A call of it does not wait for a launch that will never come: it says what the server needs, and runs nothing.
    let mut call = sandbox.command(&["call", "marked", "anything"]);
    let mut call = call.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("run plugboard call");
    let deadline = Instant::now() + Duration::from_secs(30);
    while call.try_wait().expect("wait for plugboard call").is_none() {
        if Instant::now() > deadline {
            let _ = call.kill();
            panic!("a call of a server that needs approval did not end");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let call = call.wait_with_output().expect("the call's output");
    assert_eq!(call.status.code(), Some(1), "{}", stderr(&call));
    assert!(stderr(&call).contains("plugboard approve marked"), "{}", stderr(&call));
    assert!(!marker.exists(), "it ran for a call before it was approved");

    let approved = sandbox.run(&["approve", "marked", "--yes"]);
    assert!(approved.status.success(), "{}", stderr(&approved));
    let _ = sandbox.run(&["status"]);
    assert!(marker.exists(), "approved, it did not run");
}
