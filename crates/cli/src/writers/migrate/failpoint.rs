//! Test-only failpoints for crash testing `migrate` (contract 01 §9.8).
//!
//! The writer calls [`reached`] right after each durable step (an `fsync` that completes a
//! step of the journal protocol) with the step's name. When the environment variable
//! `DOTAIOS_MIGRATE_FAILPOINT` names that step, the process kills itself with `SIGKILL` on the
//! spot: no destructor, no buffered output, no cleanup, exactly like a crash or `kill -9`. With
//! the value `signal@<step>` it sends itself `SIGTERM` instead and carries on, so that the
//! between-steps interruption path is exercised by a real signal; with `stop@<step>` it stops
//! itself (`SIGSTOP`) so that a test can change the folder at exactly that point and let it
//! continue (`SIGCONT`).
//!
//! The failpoints are compiled into every build and inert unless the variable is set: the
//! crash tests must run the very binary that users run, and a variable nobody sets costs one
//! string comparison per step. The variable is read once, here, and nowhere else; it is the
//! only environment the writers read (see `docs/decisions.md`).
//!
//! What it must never do: act on any name but an exact match, or do anything when the
//! variable is unset.

use std::sync::OnceLock;

use crate::sys::{SelfStop, stop_self};

/// The environment variable that arms one failpoint.
pub(crate) const FAILPOINT_VARIABLE: &str = "DOTAIOS_MIGRATE_FAILPOINT";

#[derive(Debug, Clone, PartialEq, Eq)]
enum Armed {
    Kill(String),
    Signal(String),
    Stop(String),
}

fn armed() -> Option<&'static Armed> {
    static ARMED: OnceLock<Option<Armed>> = OnceLock::new();
    ARMED
        .get_or_init(|| {
            let value = std::env::var(FAILPOINT_VARIABLE).ok()?;
            parse(&value)
        })
        .as_ref()
}

fn parse(value: &str) -> Option<Armed> {
    if value.is_empty() {
        return None;
    }
    Some(if let Some(step) = value.strip_prefix("signal@") {
        Armed::Signal(step.to_owned())
    } else if let Some(step) = value.strip_prefix("stop@") {
        Armed::Stop(step.to_owned())
    } else {
        Armed::Kill(value.to_owned())
    })
}

/// Marks that the durable step `name` has completed.
pub(crate) fn reached(name: &str) {
    match armed() {
        Some(Armed::Kill(step)) if step == name => {
            stop_self(SelfStop::Kill);
            // SIGKILL cannot be caught; should delivery ever be deferred, do not carry on.
            std::process::abort();
        }
        Some(Armed::Signal(step)) if step == name => {
            stop_self(SelfStop::Terminate);
        }
        Some(Armed::Stop(step)) if step == name => {
            stop_self(SelfStop::Suspend);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        assert_eq!(parse(""), None);
        assert_eq!(
            parse("journal:prepared"),
            Some(Armed::Kill("journal:prepared".into()))
        );
        assert_eq!(
            parse("signal@transaction-created"),
            Some(Armed::Signal("transaction-created".into()))
        );
        assert_eq!(
            parse("stop@journal:prepared"),
            Some(Armed::Stop("journal:prepared".into()))
        );
    }
}
