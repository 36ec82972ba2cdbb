//! Contract 05 §13: the adapter driven by a client library we did not write, `rmcp`'s client
//! (pinned exactly), in the legacy handshake, the 2026-07-28 discover lifecycle, and auto
//! mode: three tools listed in order with their annotations and output schemas, an Off call, a
//! search and a skill whose structured content equals their text, an input error seen as an
//! `isError` result with its exact message, an unknown tool failing with `-32602`, and the
//! negotiated version. Every mode lands in a structured era (2025-11-25 or 2026-07-28, contract
//! 05 §3.4).

mod support;

use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::service::ServiceError;
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use serde_json::{Value, json};
use support::Fixture;

async fn exercise(fixture: &Fixture, lifecycle: ClientLifecycleMode, expected_version: &str) {
    let mut command = tokio::process::Command::new(support::adapter());
    command.arg("--path").arg(&fixture.aios);
    let transport = TokioChildProcess::new(command).expect("spawn adapter");
    let client = ().serve_with_lifecycle(transport, lifecycle).await.expect("lifecycle starts");
    let info = client.peer_info().expect("server info after start-up");
    assert_eq!(info.protocol_version.to_string(), expected_version);
    let server = info.server_info.as_ref().expect("serverInfo");
    assert_eq!(
        (server.name.as_str(), server.version.as_str()),
        ("dotaios-mcp", env!("CARGO_PKG_VERSION"))
    );

    let tools = client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(
        names,
        ["read_working_context", "search_aios", "resolve_skill"]
    );
    for tool in &tools {
        let annotations = tool.annotations.as_ref().expect("annotations");
        assert_eq!(annotations.read_only_hint, Some(true));
        assert_eq!(annotations.destructive_hint, Some(false));
        assert_eq!(annotations.idempotent_hint, Some(true));
        assert_eq!(annotations.open_world_hint, Some(false));
        let output = tool.output_schema.as_ref().expect("outputSchema");
        assert_eq!(output.get("type"), Some(&json!("object")));
    }

    let off = call(&client, "read_working_context", json!({"memory": "off"}))
        .await
        .expect("off call");
    assert_eq!(off["receipt"], "Memory: Off");

    let found = call(&client, "search_aios", json!({"query": "plan my day"}))
        .await
        .expect("search");
    assert_eq!(found["receipt"], "Memory: Shared");
    assert_eq!(found["budget"]["limit"], 6000);

    let skill = call(&client, "resolve_skill", json!({"intent": "plan my day"}))
        .await
        .expect("skill");
    assert_eq!(skill["matches"][0]["name"], "plan-today");

    let Value::Object(bogus) = json!({"query": "x", "bogus": 1}) else {
        unreachable!()
    };
    let refused = client
        .call_tool(CallToolRequestParams::new("search_aios").with_arguments(bogus))
        .await
        .expect("an input error is a tool result");
    assert_eq!(refused.is_error, Some(true));
    assert!(refused.structured_content.is_none());
    let message = refused.content[0].as_text().expect("one text block");
    assert_eq!(message.text, "Unknown tool argument");

    match call(&client, "log_event", json!({})).await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code.0, -32602);
            assert_eq!(error.message, "Unknown tool: log_event");
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
    client.cancel().await.expect("client closes");
}

async fn call(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    name: &'static str,
    arguments: Value,
) -> Result<Value, ServiceError> {
    let Value::Object(arguments) = arguments else {
        unreachable!("arguments are objects")
    };
    let result = client
        .call_tool(CallToolRequestParams::new(name).with_arguments(arguments))
        .await?;
    assert_eq!(result.is_error, Some(false));
    assert_eq!(result.content.len(), 1);
    let text = result.content[0].as_text().expect("one text block");
    let payload: Value = serde_json::from_str(&text.text).expect("payload is JSON");
    assert_eq!(result.structured_content.as_ref(), Some(&payload));
    Ok(payload)
}

#[tokio::test(flavor = "current_thread")]
async fn legacy_handshake() {
    let fixture = Fixture::init();
    exercise(&fixture, ClientLifecycleMode::Initialize, "2025-11-25").await;
}

#[tokio::test(flavor = "current_thread")]
async fn modern_discover() {
    let fixture = Fixture::init();
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    exercise(&fixture, lifecycle, "2026-07-28").await;
}

#[tokio::test(flavor = "current_thread")]
async fn auto_prefers_modern() {
    let fixture = Fixture::init();
    let lifecycle = ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::V_2025_06_18),
    };
    exercise(&fixture, lifecycle, "2026-07-28").await;
}
