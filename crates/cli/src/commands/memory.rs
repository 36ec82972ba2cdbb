//! The memory policy as the commands take it (contract 01 §7): `--memory`, `--project` and
//! `--first-message` resolved once, with the CLI's refusal of an unknown mode, and the receipt
//! a person reads at a terminal. A leaf: it uses core and the CLI's error type, no command.

use dotaios_core::folder::memory::{
    MemoryMode, MemoryPolicy, MemoryPolicyError, PolicyArg, PolicyInputs, resolve_memory_policy,
};

use crate::CliError;
use crate::args::value_hint;

/// The memory policy of `--memory`, `--project` and `--first-message` (contract 01 §7.1), its
/// refusal of a `--memory` that names no mode continued by the closest mode (contract 06 §1.2).
pub(crate) fn memory_policy(inputs: PolicyInputs<'_>) -> Result<MemoryPolicy, CliError> {
    let mode = inputs.mode;
    resolve_memory_policy(inputs).map_err(|error| match (error, mode) {
        (MemoryPolicyError::InvalidMode, PolicyArg::Text(given)) => CliError::InvalidMemoryMode {
            hint: value_hint(given, MemoryMode::ALL.map(MemoryMode::as_str)),
        },
        (error, _) => error.into(),
    })
}

/// The memory receipt a person reads at a terminal (contract 06 §1.9): the receipt of contract
/// 01 §7 followed by what the mode covers and the option that changes it, said once at the top
/// of `brief --compact` and of search's grouped form. Scripts and agents get the bare receipt.
pub(crate) fn explained_receipt(mode: MemoryMode) -> String {
    let explanation = match mode {
        MemoryMode::Shared => "all of this AIOS folder; --memory project or off narrows it",
        MemoryMode::Project => "this project's memory only; --memory shared widens it",
        MemoryMode::Off => return mode.receipt().to_owned(),
    };
    format!("{} ({explanation})", mode.receipt())
}
