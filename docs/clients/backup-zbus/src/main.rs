//! A backup that shows on the network indicator: Rust with zbus (1.9, as Debian 12 packages it).
//!
//! Usage: backup-zbus STEPS. Each step moves 1 MB and takes 50 ms; a cancel request from the panel stops it.
use std::os::unix::io::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use nix::poll::{poll, PollFd, PollFlags};
use zbus::{Connection, Message};

const SERVICE: &str = "org.example.NetworkActivity";
const PATH: &str = "/org/example/NetworkActivity";
const CHUNK: u64 = 1_000_000;
const STEP: Duration = Duration::from_millis(50);

#[zbus::dbus_proxy(
    interface = "org.example.NetworkActivity",
    default_service = "org.example.NetworkActivity",
    default_path = "/org/example/NetworkActivity"
)]
trait NetworkActivity {
    fn begin(&self, label: &str) -> zbus::Result<u32>;
    fn set_cancellable(&self, id: u32, cancellable: bool) -> zbus::Result<()>;
    #[dbus_proxy(signal)]
    fn cancel_requested(&self, id: u32) -> zbus::Result<()>;
}

/// Sends a call without waiting for its reply. zbus 1's calls wait by reading the connection, and would keep a
/// cancel request that came meanwhile in a queue that the loop below does not see; so progress and the end are
/// sent this way, and the loop alone reads the connection.
fn send<B: serde::Serialize + zbus::zvariant::Type>(connection: &Connection, member: &str, body: &B)
    -> zbus::Result<()> {
    connection.send_message(Message::method(None, Some(SERVICE), PATH, Some(SERVICE), member, body)?)?;
    Ok(())
}

fn main() {
    let steps: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let begun = Connection::new_session().and_then(|connection| {
        let service = NetworkActivityProxy::new(&connection)?;
        let activity = service.begin("backup")?;
        service.set_cancellable(activity, true)?;
        Ok((connection, service, activity))
    });
    let shown = match begun {
        Ok(shown) => Some(shown),
        Err(error) => {
            // The indicator is a nicety: without the service, the backup goes on unseen.
            eprintln!("backup: the network indicator will not show it: {}", error);
            None
        }
    };
    let cancelled = Arc::new(AtomicBool::new(false));
    if let Some((_, service, activity)) = &shown {
        let (activity, cancelled) = (*activity, cancelled.clone());
        service
            .connect_cancel_requested(move |id| {
                if id == activity {
                    cancelled.store(true, Ordering::Relaxed);
                }
                Ok(())
            })
            .ok();
    }

    let mut done = 0;
    let mut next_step = Instant::now() + STEP;
    while done < steps && !cancelled.load(Ordering::Relaxed) {
        let wait = next_step.saturating_duration_since(Instant::now());
        if let Some((connection, service, _)) = &shown {
            // Until the next step, or a message: a cancel request, or a reply to leave unread.
            let mut fds = [PollFd::new(connection.as_raw_fd(), PollFlags::POLLIN)];
            if poll(&mut fds, wait.as_millis() as i32).unwrap_or(0) > 0 {
                if let Ok(message) = connection.receive_message() {
                    let _ = service.handle_signal(&message);
                }
                continue;
            }
        } else {
            std::thread::sleep(wait);
        }
        done += 1;
        next_step += STEP;
        if let Some((connection, _, activity)) = &shown {
            let _ = send(connection, "SetTransfer", &(*activity, done * CHUNK, steps * CHUNK));
        }
    }
    if let Some((connection, _, activity)) = &shown {
        let _ = send(connection, "End", &(*activity,));
    }
    println!("{}", if cancelled.load(Ordering::Relaxed) { "cancelled" } else { "done" });
}
