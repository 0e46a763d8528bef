//! A locked keychain is waited out, not failed: against a real gnome-keyring on a private D-Bus of the test's own
//! (so locking it disturbs no other test), a server whose env comes from the keychain waits in "keychain locked"
//! while the login collection is locked — `status` says so and what to do, the gateway's log says it waits — and once the
//! collection is unlocked the running gateway connects it by itself: its tools appear and a call works.
#![allow(clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use zbus::blocking::Connection;
use zbus::zvariant::{ObjectPath, OwnedObjectPath, OwnedValue};

use crate::support::{Sandbox, output_with_stdin, repo_root, stderr, stdout};

const PASSWORD: &str = "plugboard-test";
const SERVICE: &str = "org.freedesktop.secrets";
const LOGIN: &str = "/org/freedesktop/secrets/collection/login";

/// A session bus and a gnome-keyring serving it, both the test's own; stopped when dropped.
struct PrivateKeyring {
    processes: [Child; 2],
    bus: Bus,
}

/// The private bus, by its address: what the test does to the keyring there.
#[derive(Clone)]
struct Bus {
    address: String,
}

impl PrivateKeyring {
    fn start(home: &Path) -> Self {
        let mut bus = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("dbus-daemon (make deps installs it)");
        let mut first = String::new();
        BufReader::new(bus.stdout.take().expect("stdout")).read_line(&mut first).expect("the bus address");
        let address = first.trim().to_owned();
        let runtime = home.join("run");
        std::fs::create_dir_all(&runtime).expect("runtime dir");
        std::fs::set_permissions(&runtime, std::os::unix::fs::PermissionsExt::from_mode(0o700)).expect("0700");
        let mut keyring = Command::new("gnome-keyring-daemon")
            .args(["--foreground", "--unlock", "--components=secrets"])
            .env("DBUS_SESSION_BUS_ADDRESS", &address)
            .env("HOME", home)
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("XDG_DATA_HOME", home.join(".local/share"))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("gnome-keyring-daemon (make deps installs it)");
        std::io::Write::write_all(&mut keyring.stdin.take().expect("stdin"), PASSWORD.as_bytes()).expect("password");
        let keyring = Self { processes: [keyring, bus], bus: Bus { address } };
        let deadline = Instant::now() + Duration::from_secs(20);
        while !keyring.bus.serving() {
            assert!(Instant::now() < deadline, "gnome-keyring did not serve {SERVICE} on the private bus");
            std::thread::sleep(Duration::from_millis(100));
        }
        keyring
    }
}

impl Bus {
    fn connection(&self) -> Connection {
        let address: zbus::Address = self.address.parse().expect("address");
        zbus::blocking::connection::Builder::address(address).expect("builder").build().expect("connect")
    }

    fn serving(&self) -> bool {
        let Ok(address) = self.address.parse::<zbus::Address>() else { return false };
        let Ok(connection) = zbus::blocking::connection::Builder::address(address).and_then(|b| b.build()) else {
            return false;
        };
        let Ok(bus) = zbus::blocking::fdo::DBusProxy::new(&connection) else { return false };
        bus.name_has_owner(SERVICE.try_into().expect("name")).unwrap_or(false)
    }

    /// Locks the login collection, as a screen lock or the person would (no prompt is involved).
    fn lock(&self) {
        let login = ObjectPath::try_from(LOGIN).expect("path");
        self.connection()
            .call_method(
                Some(SERVICE),
                "/org/freedesktop/secrets",
                Some("org.freedesktop.Secret.Service"),
                "Lock",
                &(vec![login],),
            )
            .expect("Lock");
        assert!(self.locked(), "the login collection is locked");
    }

    /// Unlocks it with its password, the way a login does (gnome-keyring's own interface: no prompt).
    fn unlock(&self) {
        let connection = self.connection();
        let opened = connection
            .call_method(
                Some(SERVICE),
                "/org/freedesktop/secrets",
                Some("org.freedesktop.Secret.Service"),
                "OpenSession",
                &("plain", zbus::zvariant::Value::from("")),
            )
            .expect("OpenSession");
        let (_, session): (OwnedValue, OwnedObjectPath) = opened.body().deserialize().expect("session");
        let secret = (session, Vec::<u8>::new(), PASSWORD.as_bytes().to_vec(), "text/plain");
        connection
            .call_method(
                Some(SERVICE),
                "/org/freedesktop/secrets",
                Some("org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface"),
                "UnlockWithMasterPassword",
                &(ObjectPath::try_from(LOGIN).expect("path"), secret),
            )
            .expect("UnlockWithMasterPassword");
        assert!(!self.locked(), "the login collection is unlocked");
    }

    fn locked(&self) -> bool {
        let reply = self
            .connection()
            .call_method(
                Some(SERVICE),
                LOGIN,
                Some("org.freedesktop.DBus.Properties"),
                "Get",
                &("org.freedesktop.Secret.Collection", "Locked"),
            )
            .expect("Locked");
        let value: OwnedValue = reply.body().deserialize().expect("value");
        bool::try_from(value).expect("a bool")
    }
}

impl Drop for PrivateKeyring {
    fn drop(&mut self) {
        for child in &mut self.processes {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `plugboard ARGS` on the private bus.
fn on_bus(sandbox: &Sandbox, keyring: &PrivateKeyring, args: &[&str]) -> Command {
    let mut command = sandbox.command(args);
    command.env("DBUS_SESSION_BUS_ADDRESS", &keyring.bus.address).env("XDG_RUNTIME_DIR", sandbox.home().join("run"));
    command
}

/// A server whose secret is in a locked keychain waits in "keychain locked" (status says so and what to do; the
/// running gateway's log says it waits, without retrying), and the gateway connects it by itself once the keychain
/// is unlocked: its tools appear and a call works.
#[test]
#[ignore = "needs gnome-keyring, dbus-daemon and the npm reference servers; make test runs it in the harness"]
fn a_locked_keychain_is_waited_out_and_the_server_comes_up_on_unlock() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.home()).expect("home");
    let keyring = PrivateKeyring::start(&sandbox.home());
    let everything = repo_root().join("tests/node_modules/.bin/mcp-server-everything");
    assert!(everything.exists(), "{} is missing: run `make deps`", everything.display());
    sandbox.write_config(
        &serde_json::json!({ "mcpServers": { "locked": {
            "command": everything, "args": ["stdio"], "env": { "API_TOKEN": "${secret:token}" }, "tools": ["echo"],
        }}})
        .to_string(),
    );
    let set =
        output_with_stdin(on_bus(&sandbox, &keyring, &["secret", "set", "locked", "token"]), "kept-in-the-keyring");
    assert!(set.status.success(), "{}", stderr(&set));
    let approved = on_bus(&sandbox, &keyring, &["approve", "--all", "--yes"]).output().expect("approve");
    assert!(approved.status.success(), "{}", stderr(&approved));

    keyring.bus.lock();
    let status = on_bus(&sandbox, &keyring, &["status"]).output().expect("status");
    let said = stdout(&status);
    assert!(said.contains("keychain locked") && said.contains("Unlock the OS keychain"), "{said}{}", stderr(&status));

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    runtime.block_on(async {
        use rmcp::ServiceExt;
        use rmcp::model::CallToolRequestParams;
        // The gateway's own log says each state its servers pass through.
        let mut serve = on_bus(&sandbox, &keyring, &["serve", "--stdio"]);
        serve.env("PLUGBOARD_LOG", "info");
        let (transport, logs) = rmcp::transport::TokioChildProcess::builder(tokio::process::Command::from(serve))
            .stderr(Stdio::piped())
            .spawn()
            .expect("serve --stdio");
        let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let mut lines = tokio::io::AsyncBufReadExt::lines(tokio::io::BufReader::new(logs.expect("stderr")));
        let kept = std::sync::Arc::clone(&log);
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                kept.lock().expect("log").push_str(&format!("{line}\n"));
            }
        });
        let client = ().serve(transport).await.expect("session");
        let listed = client.list_all_tools().await.expect("tools/list");
        assert!(listed.is_empty(), "a server waiting for the keychain offers nothing: {listed:?}");
        let said = log.lock().expect("log").clone();
        assert!(said.contains("server=locked state=\"keychain locked\""), "the gateway's server waits: {said}");
        // Waiting, not retrying: no attempt is made while it stays locked.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let said = log.lock().expect("log").clone();
        assert_eq!(said.matches("state=\"connecting\"").count(), 1, "one attempt while locked: {said}");

        let bus = keyring.bus.clone();
        tokio::task::spawn_blocking(move || bus.unlock()).await.expect("unlock");
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let tools = client.list_all_tools().await.expect("tools/list");
            if tools.iter().any(|t| t.name == "mcp__locked__echo") {
                break;
            }
            assert!(Instant::now() < deadline, "the server did not come up after the unlock: {tools:?}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let echoed = client
            .call_tool(
                CallToolRequestParams::new("mcp__locked__echo")
                    .with_arguments(serde_json::json!({ "message": "unlocked" }).as_object().cloned().expect("object")),
            )
            .await
            .expect("a call once unlocked");
        assert!(serde_json::to_string(&echoed).expect("json").contains("Echo: unlocked"), "{echoed:?}");
        client.cancel().await.expect("close");
    });
}
