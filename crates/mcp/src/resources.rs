//! Skills as MCP resources in the structured eras (contract 05 §7.7): `resources/list`,
//! `resources/read` and `resources/templates/list`, so that an agent that only speaks MCP can
//! read the `SKILL.md` that `resolve_skill` named by its `uri`.
//!
//! **Invariant:** the server routes these methods here only in the structured eras (the
//! reference era answers `-32601`, as the reference did). The order is the tools' (§6): the
//! request's shape (a `uri` string of the skill URI shape, no I/O), the memory policy (Off reads
//! nothing), the folder check, then one core read. What a URI may name, the path-free URI form
//! and every read are `dotaios_core::skills`' (`read_skill_resource`, `resource_entries`);
//! nothing here builds a path, decodes a URI or formats a core error.

use std::path::Path;

use dotaios_core::folder::memory::OFF_NOTICE;
use dotaios_core::skills::{
    SKILL_MIME_TYPE, is_skill_uri, read_catalog_at, read_skill_resource, resource_entries,
};
use indexmap::IndexMap;
use serde_json::{Value, json};

use crate::error::RpcError;
use crate::json::Json;
use crate::lifecycle::Era;
use crate::tools::require_folder;

/// The request `_meta` member that carries the memory mode of a resource request (§7.7): a
/// resource request has no arguments, and `_meta` is where the protocol lets a client attach
/// its own metadata.
pub(crate) const META_MEMORY: &str = "dotaios/memory";

/// The MIME type of the Off answer's one text, which is the Off notice, not the skill.
const OFF_MIME_TYPE: &str = "text/plain";

/// The memory mode of a resource request: `shared` unless `_meta` says `off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ResourceMemory {
    Shared,
    Off,
}

fn memory_of(params: Option<&IndexMap<String, Json>>) -> Result<ResourceMemory, RpcError> {
    let value = params
        .and_then(|params| params.get("_meta"))
        .and_then(Json::as_object)
        .and_then(|meta| meta.get(META_MEMORY));
    match value {
        None | Some(Json::Null) => Ok(ResourceMemory::Shared),
        Some(value) => match value.as_str() {
            Some("shared") => Ok(ResourceMemory::Shared),
            Some("off") => Ok(ResourceMemory::Off),
            _ => Err(RpcError::invalid(
                "dotaios/memory must be one of: shared, off.",
            )),
        },
    }
}

/// `resources/list`: every skill of the catalog, in catalog order, one page (the catalog holds
/// at most 512 skills, contract 04 §1.1); none in Off mode.
pub(crate) fn list(params: Option<&Json>, folder: &Path) -> Result<Value, RpcError> {
    let params = params.and_then(Json::as_object);
    if memory_of(params)? == ResourceMemory::Off {
        return Ok(json!({"resources": []}));
    }
    require_folder(folder)?;
    let catalog = read_catalog_at(folder).map_err(|error| RpcError::from_core(&error))?;
    let resources: Vec<Value> = resource_entries(&catalog)
        .into_iter()
        .map(|entry| {
            json!({
                "uri": entry.uri,
                "name": entry.name,
                "description": entry.description,
                "mimeType": SKILL_MIME_TYPE,
            })
        })
        .collect();
    Ok(json!({"resources": resources}))
}

/// `resources/read`: the whole `SKILL.md` the URI names, or the Off notice in Off mode. A URI
/// that names no listed skill, whatever its form, is "Resource not found" (`-32002`; in the
/// 2026-07-28 era `-32602`, SEP-2164).
pub(crate) fn read(params: Option<&Json>, folder: &Path, era: Era) -> Result<Value, RpcError> {
    let params = params.and_then(Json::as_object);
    let Some(uri) = params
        .and_then(|params| params.get("uri"))
        .and_then(Json::as_str)
    else {
        return Err(RpcError::invalid("uri must be a string"));
    };
    let not_found = RpcError::ResourceNotFound {
        invalid_params: era == Era::Modern,
    };
    if !is_skill_uri(uri) {
        return Err(not_found);
    }
    if memory_of(params)? == ResourceMemory::Off {
        return Ok(contents(uri, OFF_MIME_TYPE, OFF_NOTICE));
    }
    require_folder(folder)?;
    match read_skill_resource(folder, uri) {
        Ok(Some(text)) => Ok(contents(uri, SKILL_MIME_TYPE, &text)),
        Ok(None) => Err(not_found),
        Err(error) => Err(RpcError::from_core(&error)),
    }
}

/// `resources/templates/list`: none; every skill is listed by its own URI.
pub(crate) fn templates() -> Value {
    json!({"resourceTemplates": []})
}

fn contents(uri: &str, mime_type: &str, text: &str) -> Value {
    json!({"contents": [{"uri": uri, "mimeType": mime_type, "text": text}]})
}
