// Which server scenarios of the MCP conformance suite test what Porthole serves. Porthole declares
// the `tools` capability (with listChanged) and nothing else, over Streamable HTTP on 127.0.0.1:
// every scenario about that must pass. A scenario the suite lists that is in neither list fails the
// test until someone decides where it belongs. There is no list of known failures.

/** Each must pass, in every era the suite runs it for. */
export const APPLIES = new Set([
  'server-initialize',
  'server-session-lifecycle',
  'ping',
  'tools-list',
  'server-sse-polling',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
  // 2026-07-28
  'server-stateless',
  'caching',
  'http-header-validation',
]);

/** Scenarios about what Porthole does not serve, with the reason. */
export const DOES_NOT_APPLY: Record<string, string> = {
  'logging-set-level': 'no `logging` capability',
  'tools-call-with-logging': 'no `logging` capability',
  'completion-complete': 'no `completions` capability',
  'resources-list': 'no `resources` capability',
  'resources-read-text': 'no `resources` capability',
  'resources-read-binary': 'no `resources` capability',
  'resources-templates-read': 'no `resources` capability',
  'resources-subscribe': 'no `resources` capability',
  'resources-unsubscribe': 'no `resources` capability',
  'sep-2164-resource-not-found': 'no `resources` capability',
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
  // the SDKs' "everything" test servers have; Porthole's own tools are covered by tools-list and
  // by the Inspector CLI and SDK client tests in outside-mcp-tools.spec.ts.
  'tools-call-simple-text': 'calls the fixture tool test_simple_text',
  'tools-call-image': 'calls the fixture tool test_image_content',
  'tools-call-audio': 'calls the fixture tool test_audio_content',
  'tools-call-embedded-resource': 'calls the fixture tool test_embedded_resource',
  'tools-call-mixed-content': 'calls the fixture tool test_multiple_content_types',
  'tools-call-error': 'calls the fixture tool test_error_handling',
  'tools-call-with-progress': 'calls the fixture tool test_tool_with_progress',
  'json-schema-2020-12': 'looks for the fixture tool json_schema_2020_12_tool',
};

/** Whole families of scenarios about extensions or features Porthole does not use. */
const FAMILIES: [prefix: string, reason: string][] = [
  ['tasks-', 'the tasks extension is not declared'],
  ['sep-2640-skills-', 'the skills extension is not declared'],
  ['input-required-result-', 'Porthole never asks the client for input, samples or roots mid-request'],
];

/** Why a scenario does not apply, or undefined when it does (or is not classified yet). */
export function whyNotApplicable(scenario: string): string | undefined {
  return DOES_NOT_APPLY[scenario] ?? FAMILIES.find(([prefix]) => scenario.startsWith(prefix))?.[1];
}
