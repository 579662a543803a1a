// Which server scenarios of the MCP conformance suite test what Porthole serves. Porthole declares
// the `tools` capability (with listChanged), and `resources` with the MCP Apps extension for its
// two ui:// views only (no templates, no subscriptions), over Streamable HTTP on 127.0.0.1:
// every scenario about that must pass. A scenario the suite lists that is in neither list fails the
// test until someone decides where it belongs. There is no list of known failures.

/** Each must pass, in every era the suite runs it for. */
export const APPLIES = new Set([
  'server-initialize',
  'server-session-lifecycle',
  'ping',
  'tools-list',
  'resources-list',
  'sep-2164-resource-not-found',
  'server-sse-polling',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
  // 2026-07-28
  'server-stateless',
  'caching',
  'http-header-validation',
  // Of the input-required family, these two ask only that a server which never requests input
  // does not answer with an InputRequiredResult, and validates what it is sent.
  'input-required-result-unsupported-methods',
  'input-required-result-validate-input',
]);

/** Scenarios about what Porthole does not serve, with the reason. */
export const DOES_NOT_APPLY: Record<string, string> = {
  'logging-set-level': 'no `logging` capability',
  'tools-call-with-logging': 'no `logging` capability',
  'completion-complete': 'no `completions` capability',
  'resources-read-text':
    "reads the suite's fixture resources (test://…); Porthole serves only its MCP App views (electron/host/mcp/mcp-apps.test.ts)",
  'resources-read-binary':
    "reads the suite's fixture resources (test://…); Porthole serves only its MCP App views (electron/host/mcp/mcp-apps.test.ts)",
  'resources-templates-read': 'no resource templates',
  'resources-subscribe': 'no resource subscriptions (the views do not change while it runs)',
  'resources-unsubscribe': 'no resource subscriptions (the views do not change while it runs)',
  'prompts-list': 'no `prompts` capability',
  'prompts-get-simple': 'no `prompts` capability',
  'prompts-get-with-args': 'no `prompts` capability',
  'prompts-get-embedded-resource': 'no `prompts` capability',
  'prompts-get-with-image': 'no `prompts` capability',
  'tools-call-sampling': 'Porthole never asks the client to sample',
  'tools-call-elicitation': 'Porthole never asks the client for input (elicitation)',
  'elicitation-sep1034-defaults': 'Porthole never asks the client for input (elicitation)',
  'elicitation-sep1330-enums': 'Porthole never asks the client for input (elicitation)',
  // These call the suite's fixture tools (test_simple_text, test_image_content, …), which only
  // the SDKs' "everything" test servers have. Porthole's own tools are covered by tools-list and
  // by the Inspector CLI and SDK client tests in outside-mcp-tools.spec.ts. The first three also
  // run against a fixture plugin with those tools (e2e/fixtures/plugins/test/) there.
  'tools-call-simple-text': 'calls the fixture tool test_simple_text',
  'tools-call-image': 'calls the fixture tool test_image_content',
  'tools-call-audio': 'calls the fixture tool test_audio_content',
  'tools-call-embedded-resource': 'calls the fixture tool test_embedded_resource',
  'tools-call-mixed-content': 'calls the fixture tool test_multiple_content_types',
  'tools-call-error': 'calls the fixture tool test_error_handling',
  'tools-call-with-progress': 'calls the fixture tool test_tool_with_progress',
  'json-schema-2020-12': 'looks for the fixture tool json_schema_2020_12_tool',
  'http-custom-header-server-validation': 'no tool maps an argument to a header (x-mcp-header)',
};

/**
 * Single checks of scenarios that apply, that test something Porthole does not serve: they count as
 * not applicable only while they fail with exactly this message (any other failure counts).
 */
export const CHECKS_THAT_DO_NOT_APPLY: { scenario: string; check: string; message: RegExp; reason: string }[] = [
  ...['sep-2575-server-rejects-undeclared-capability', 'sep-2575-missing-capability-http-400'].map((check) => ({
    scenario: 'server-stateless',
    check,
    message: /^Not testable: server does not list the diagnostic tool 'test_missing_capability'/,
    reason: 'needs the fixture tool test_missing_capability',
  })),
  {
    scenario: 'server-stateless',
    check: 'sep-2575-http-server-no-independent-requests-on-stream',
    message: /^Not testable: server does not list the diagnostic tool 'test_streaming_elicitation'/,
    reason: 'needs the fixture tool test_streaming_elicitation (Porthole sends no requests to the client)',
  },
  {
    scenario: 'server-stateless',
    check: 'sep-2575-server-no-log-without-loglevel',
    message: /^Not testable: server does not list the diagnostic tool 'test_logging_tool'/,
    reason: 'needs the fixture tool test_logging_tool (no `logging` capability)',
  },
  ...['prompts-list', 'resources-templates-list'].map((list) => ({
    scenario: 'caching',
    check: `sep-2549-${list}-caching-hints`,
    message: /returned JSON-RPC error -32601: Method not found$/,
    reason: `${list.replace(/-(?=list)/, '/').replace('templates-', 'templates/')} is not served: -32601 is the right answer`,
  })),
];

/** Whole families of scenarios about extensions or features Porthole does not use. */
const FAMILIES: [prefix: string, reason: string][] = [
  ['tasks-', 'the tasks extension is not declared'],
  ['sep-2640-skills-', 'the skills extension is not declared'],
  ['input-required-result-', 'Porthole never asks the client for input, samples or roots mid-request'],
];

/** Why a scenario does not apply, or undefined when it does (or is not classified yet). */
export function whyNotApplicable(scenario: string): string | undefined {
  if (APPLIES.has(scenario)) return undefined;
  return DOES_NOT_APPLY[scenario] ?? FAMILIES.find(([prefix]) => scenario.startsWith(prefix))?.[1];
}

/** Whether a failed check is one of CHECKS_THAT_DO_NOT_APPLY, failing for that reason. */
export function checkDoesNotApply(scenario: string, check: { id: string; errorMessage?: string }): boolean {
  return CHECKS_THAT_DO_NOT_APPLY.some(
    (c) => c.scenario === scenario && c.check === check.id && c.message.test(check.errorMessage ?? ''),
  );
}
