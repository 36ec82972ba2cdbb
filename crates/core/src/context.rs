//! The working-context projection (spec 02) behind `dotaios brief --compact` and the MCP tool
//! `read_working_context`.
