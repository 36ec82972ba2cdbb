//! The journal and receipt documents of contract 01 §9.5: their exact JSON (2-space pretty JSON
//! plus one newline, keys in the contract's order) and the journal's validation for recovery
//! (§9.7 step 5). Pure: no I/O.

use dotaios_core::folder::plan::{Action, Plan, check_writable};
use dotaios_core::text::{LoneSurrogates, serde_read, to_json_pretty};
use serde_json::{Map, Value, json};

use super::inventory::PreservedPath;
use super::state::RECEIPT_SCHEMA;

/// The `schema` of a journal.
pub(crate) const JOURNAL_SCHEMA: &str = "dotaios.migration-journal.v1";

/// Where a transaction stands; each status names what recovery faces (§9.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Backups and staged files are being written; no live file touched.
    Preparing,
    /// Every backup and staged file is durable; no live file touched.
    Prepared,
    /// Non-config files are being renamed into place.
    Applying,
    /// `aios.json` is being committed.
    Committing,
}

impl Status {
    /// The status as the journal spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Preparing => "preparing",
            Status::Prepared => "prepared",
            Status::Applying => "applying",
            Status::Committing => "committing",
        }
    }

    fn parse(text: &str) -> Option<Status> {
        Some(match text {
            "preparing" => Status::Preparing,
            "prepared" => Status::Prepared,
            "applying" => Status::Applying,
            "committing" => Status::Committing,
            _ => return None,
        })
    }
}

/// One journaled operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// `.gitignore` or `aios.json`.
    pub path: String,
    /// Replace or create.
    pub action: Action,
    /// Hex SHA-256 of the bytes before (`None` for a create).
    pub before_sha256: Option<String>,
    /// Hex SHA-256 of the bytes after.
    pub after_sha256: String,
    /// Permission bits before (`None` for a create, or when an older writer recorded none).
    pub before_mode: Option<u32>,
    /// Permission bits after (`None` when an older writer recorded none).
    pub after_mode: Option<u32>,
}

impl Operation {
    /// `backups/<path>` for a replace.
    pub fn backup_path(&self) -> Option<String> {
        (self.action == Action::Replace).then(|| format!("backups/{}", self.path))
    }
}

/// The journal of one transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Journal {
    /// The plan id, equal to the transaction directory's name.
    pub plan_id: String,
    /// Where the transaction stands.
    pub status: Status,
    /// When the transaction began (ISO-8601 UTC).
    pub created_at: String,
    /// The folder schema before.
    pub from_schema_version: String,
    /// The folder schema after.
    pub to_schema_version: String,
    /// The migration step ids, in order.
    pub migrations: Vec<String>,
    /// The file operations, in order.
    pub operations: Vec<Operation>,
}

impl Journal {
    /// The journal for `plan`, in status `preparing`.
    pub fn for_plan(plan: &Plan, created_at: String) -> Journal {
        Journal {
            plan_id: plan.id.clone(),
            status: Status::Preparing,
            created_at,
            from_schema_version: plan.from_schema_version.clone(),
            to_schema_version: plan.to_schema_version.to_owned(),
            migrations: plan
                .migrations
                .iter()
                .map(|step| step.id.to_owned())
                .collect(),
            operations: plan
                .changes
                .iter()
                .map(|change| Operation {
                    path: change.path.to_owned(),
                    action: change.action,
                    before_sha256: change.before_sha256.clone(),
                    after_sha256: change.after_sha256.clone(),
                    before_mode: change.before_mode,
                    after_mode: Some(change.after_mode),
                })
                .collect(),
        }
    }

    /// The file's bytes: pretty JSON, keys in the contract's order, one trailing newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let operations: Vec<Value> = self
            .operations
            .iter()
            .map(|operation| {
                let mut object = Map::new();
                object.insert("path".into(), operation.path.as_str().into());
                object.insert("action".into(), operation.action.as_str().into());
                object.insert("before_sha256".into(), json!(operation.before_sha256));
                object.insert(
                    "after_sha256".into(),
                    operation.after_sha256.as_str().into(),
                );
                object.insert("before_mode".into(), json!(operation.before_mode));
                object.insert("after_mode".into(), json!(operation.after_mode));
                object.insert("backup_path".into(), json!(operation.backup_path()));
                Value::Object(object)
            })
            .collect();
        let mut object = Map::new();
        object.insert("schema".into(), JOURNAL_SCHEMA.into());
        object.insert("plan_id".into(), self.plan_id.as_str().into());
        object.insert("status".into(), self.status.as_str().into());
        object.insert("created_at".into(), self.created_at.as_str().into());
        object.insert(
            "from_schema_version".into(),
            self.from_schema_version.as_str().into(),
        );
        object.insert(
            "to_schema_version".into(),
            self.to_schema_version.as_str().into(),
        );
        object.insert("migrations".into(), json!(self.migrations));
        object.insert("operations".into(), Value::Array(operations));
        pretty_with_newline(&Value::Object(object))
    }

    /// Parses and validates a journal read back from `transactions/<dir_name>/journal.json`
    /// (contract 01 §9.7 step 5): the schema, `plan_id` equal to the directory name, a known
    /// status, every operation path writable, `after_sha256` a string, modes integers in
    /// `0..=0o777` with `before_mode` null exactly for a create. Journals without any mode
    /// fields (older writers) are accepted. `None` when anything fails.
    pub fn parse(text: &str, dir_name: &str) -> Option<Journal> {
        // The journal lies inside the folder: read under the workspace's bounds.
        let Ok(Value::Object(object)) = serde_read::<Value>(text, LoneSurrogates::Refuse) else {
            return None;
        };
        let string = |key: &str| object.get(key).and_then(Value::as_str);
        if string("schema") != Some(JOURNAL_SCHEMA) || string("plan_id") != Some(dir_name) {
            return None;
        }
        let status = Status::parse(string("status")?)?;
        let migrations = match object.get("migrations") {
            None => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| item.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()?,
            Some(_) => return None,
        };
        let Some(Value::Array(items)) = object.get("operations") else {
            return None;
        };
        let mut operations = Vec::with_capacity(items.len());
        for item in items {
            operations.push(parse_operation(item)?);
        }
        Some(Journal {
            plan_id: dir_name.to_owned(),
            status,
            created_at: string("created_at").unwrap_or_default().to_owned(),
            from_schema_version: string("from_schema_version").unwrap_or_default().to_owned(),
            to_schema_version: string("to_schema_version").unwrap_or_default().to_owned(),
            migrations,
            operations,
        })
    }
}

fn parse_operation(item: &Value) -> Option<Operation> {
    let Value::Object(object) = item else {
        return None;
    };
    let path = object.get("path")?.as_str()?;
    check_writable(path).ok()?;
    let action = match object.get("action").and_then(Value::as_str) {
        Some("replace") => Action::Replace,
        Some("create") => Action::Create,
        _ => return None,
    };
    let after_sha256 = object.get("after_sha256")?.as_str()?.to_owned();
    let before_sha256 = match object.get("before_sha256") {
        None | Some(Value::Null) => None,
        Some(Value::String(hash)) => Some(hash.clone()),
        Some(_) => return None,
    };
    // A replace must say what to restore; a create has nothing before it.
    match (action, &before_sha256) {
        (Action::Replace, None) | (Action::Create, Some(_)) => return None,
        _ => {}
    }
    let mode = |key: &str| -> Option<Option<u32>> {
        match object.get(key) {
            None => Some(None),
            Some(Value::Null) => Some(None),
            Some(value) => {
                let number = value.as_u64()?;
                (number <= 0o777).then_some(Some(u32::try_from(number).ok()?))
            }
        }
    };
    let before_mode = mode("before_mode")?;
    let after_mode = mode("after_mode")?;
    let has_modes = object.contains_key("before_mode") || object.contains_key("after_mode");
    if has_modes {
        // With modes recorded: after_mode always, before_mode null exactly for a create.
        let before_ok = match action {
            Action::Create => object.get("before_mode") == Some(&Value::Null),
            Action::Replace => before_mode.is_some(),
        };
        if after_mode.is_none() || !before_ok {
            return None;
        }
    }
    Some(Operation {
        path: path.to_owned(),
        action,
        before_sha256,
        after_sha256,
        before_mode,
        after_mode,
    })
}

/// The receipt of a committed plan (contract 01 §9.5), as file bytes.
pub(crate) fn receipt_bytes(plan: &Plan, preserved: &[PreservedPath], applied_at: &str) -> Vec<u8> {
    let transaction_path = format!(".dotaios/migrations/transactions/{}", plan.id);
    let operations: Vec<Value> = plan
        .changes
        .iter()
        .map(|change| {
            let mut object = Map::new();
            object.insert("path".into(), change.path.into());
            object.insert("before_sha256".into(), json!(change.before_sha256));
            object.insert("after_sha256".into(), change.after_sha256.as_str().into());
            Value::Object(object)
        })
        .collect();
    let backups: Vec<Value> = plan
        .changes
        .iter()
        .map(|change| {
            let backup_path = (change.action == Action::Replace)
                .then(|| format!("{transaction_path}/backups/{}", change.path));
            let mut object = Map::new();
            object.insert("path".into(), change.path.into());
            object.insert("backup_path".into(), json!(backup_path));
            object.insert("before_sha256".into(), json!(change.before_sha256));
            Value::Object(object)
        })
        .collect();
    let preserved: Vec<Value> = preserved
        .iter()
        .map(|entry| {
            let mut object = Map::new();
            object.insert("path".into(), entry.path.as_str().into());
            object.insert("kind".into(), entry.kind.as_str().into());
            object.insert("bytes".into(), entry.bytes.into());
            object.insert("sha256".into(), json!(entry.sha256));
            Value::Object(object)
        })
        .collect();
    let mut recovery = Map::new();
    recovery.insert("strategy".into(), "journaled-backup".into());
    recovery.insert("journal_schema".into(), JOURNAL_SCHEMA.into());
    recovery.insert("transaction_path".into(), transaction_path.as_str().into());
    recovery.insert(
        "rollback_command".into(),
        format!("dotaios migrate --recover {}", plan.id).into(),
    );
    recovery.insert("backups".into(), Value::Array(backups));

    let mut object = Map::new();
    object.insert("schema".into(), RECEIPT_SCHEMA.into());
    object.insert("plan_id".into(), plan.id.as_str().into());
    object.insert(
        "from_schema_version".into(),
        plan.from_schema_version.as_str().into(),
    );
    object.insert("to_schema_version".into(), plan.to_schema_version.into());
    object.insert(
        "migrations".into(),
        json!(
            plan.migrations
                .iter()
                .map(|step| step.id)
                .collect::<Vec<_>>()
        ),
    );
    object.insert("operations".into(), Value::Array(operations));
    object.insert("preserved_paths".into(), Value::Array(preserved));
    object.insert("recovery".into(), Value::Object(recovery));
    object.insert("release_version".into(), env!("CARGO_PKG_VERSION").into());
    object.insert("applied_at".into(), applied_at.into());
    pretty_with_newline(&Value::Object(object))
}

fn pretty_with_newline(value: &Value) -> Vec<u8> {
    let mut text = to_json_pretty(value);
    text.push('\n');
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use dotaios_core::folder::plan::{LiveFile, PlanSource, build_plan};

    use super::*;

    fn plan() -> Plan {
        build_plan(&PlanSource {
            config: LiveFile {
                bytes: b"{\"schema_version\": \"1.1.0\"}\n".to_vec(),
                mode: 0o644,
            },
            ignore: None,
        })
        .unwrap()
        .unwrap()
    }

    #[test]
    fn journal_round_trips_and_has_the_spec_shape() {
        let plan = plan();
        let journal = Journal::for_plan(&plan, "2026-08-01T00:00:00.000Z".into());
        let text = String::from_utf8(journal.to_bytes()).unwrap();
        assert!(text.starts_with(&format!(
            "{{\n  \"schema\": \"dotaios.migration-journal.v1\",\n  \"plan_id\": \"{}\",\n  \"status\": \"preparing\",\n  \"created_at\": \"2026-08-01T00:00:00.000Z\",\n",
            plan.id
        )));
        assert!(text.contains(
            "\"path\": \".gitignore\",\n      \"action\": \"create\",\n      \"before_sha256\": null,"
        ));
        assert!(text.contains("\"before_mode\": 420,\n      \"after_mode\": 420,\n      \"backup_path\": \"backups/aios.json\""));
        assert!(text.ends_with("}\n"));
        assert_eq!(Journal::parse(&text, &plan.id), Some(journal));
        assert_eq!(
            Journal::parse(&text, "migrate-1_1_0-to-1_2_0-0000000000000000"),
            None
        );
    }

    #[test]
    fn journal_validation() {
        let plan = plan();
        let journal = Journal::for_plan(&plan, "t".into());
        let good: Value = serde_json::from_slice(&journal.to_bytes()).unwrap();
        let edited = |edit: &dyn Fn(&mut Value)| {
            let mut value = good.clone();
            edit(&mut value);
            Journal::parse(&value.to_string(), &plan.id)
        };
        assert!(edited(&|_| {}).is_some());
        assert!(edited(&|v| v["status"] = "done".into()).is_none());
        assert!(edited(&|v| v["schema"] = "x".into()).is_none());
        assert!(edited(&|v| v["operations"][0]["path"] = "context/work.md".into()).is_none());
        assert!(edited(&|v| v["operations"][0]["path"] = "README.md".into()).is_none());
        assert!(edited(&|v| v["operations"][1]["after_sha256"] = Value::Null).is_none());
        assert!(edited(&|v| v["operations"][1]["after_mode"] = 0o1000.into()).is_none());
        assert!(edited(&|v| v["operations"][1]["after_mode"] = (-1).into()).is_none());
        assert!(edited(&|v| v["operations"][1]["before_mode"] = Value::Null).is_none());
        assert!(edited(&|v| v["operations"][0]["before_mode"] = 420.into()).is_none());
        // Older writers recorded no modes at all.
        let without_modes = edited(&|v| {
            for operation in v["operations"].as_array_mut().unwrap() {
                let object = operation.as_object_mut().unwrap();
                object.remove("before_mode");
                object.remove("after_mode");
            }
        })
        .unwrap();
        assert!(
            without_modes
                .operations
                .iter()
                .all(|op| op.after_mode.is_none())
        );
    }

    #[test]
    fn receipt_shape() {
        let plan = plan();
        let text =
            String::from_utf8(receipt_bytes(&plan, &[], "2026-08-01T00:00:00.000Z")).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "schema",
                "plan_id",
                "from_schema_version",
                "to_schema_version",
                "migrations",
                "operations",
                "preserved_paths",
                "recovery",
                "release_version",
                "applied_at"
            ]
        );
        assert_eq!(
            value["recovery"]["rollback_command"],
            format!("dotaios migrate --recover {}", plan.id)
        );
        assert_eq!(
            value["recovery"]["backups"][1]["backup_path"],
            format!(
                ".dotaios/migrations/transactions/{}/backups/aios.json",
                plan.id
            )
        );
        assert_eq!(value["recovery"]["backups"][0]["backup_path"], Value::Null);
        assert!(text.ends_with("}\n"));
    }
}
