//! The skill catalog and resolver (spec 04) behind `dotaios skills` and the MCP tool
//! `resolve_skill`.
