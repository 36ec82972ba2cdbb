//! Search over the AIOS folder (spec 03) behind `dotaios search` and the MCP tool `search_aios`.
