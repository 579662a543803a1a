import type {
  MockAction,
  MockConfigView,
  MockMatch,
  MockRule,
  MockRuleSummary,
  MockStateSummary,
} from '../protocol.js';

const MAX_LINE = 300;
const cut = (line: string) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line);

function conditions(kind: string, list: MockMatch['headers']): string[] {
  return (list ?? []).map((c) =>
    c.equals !== undefined
      ? `${kind} ${c.name}=${c.equals}`
      : c.contains !== undefined
        ? `${kind} ${c.name}~${c.contains}`
        : `${kind} ${c.name}`,
  );
}

/** e.g. `GET glob https://host/api/* header x-a=1 body~"id"`. */
export function describeMatch(match: MockMatch): string {
  const url = `${match.url.kind} ${match.url.value}${match.url.flags ? ` (flags ${match.url.flags})` : ''}`;
  const parts = [
    `${match.method ?? '*'} ${url}`,
    ...conditions('header', match.headers),
    ...conditions('query', match.query),
    ...(match.bodyContains !== undefined ? [`body~${JSON.stringify(match.bodyContains)}`] : []),
    ...(match.graphql ? [`graphql ${match.graphql}`] : []),
  ];
  return cut(parts.join(' '));
}

/** e.g. `respond 500 json after 100 ms`, `networkError "offline"`. */
export function describeAction(action: MockAction): string {
  const delay = action.delayMs ? ` after ${action.delayMs} ms` : '';
  if (action.type === 'networkError') {
    const code = action.code ? ` ${action.code}` : '';
    return cut(`networkError${code}${action.message ? ` ${JSON.stringify(action.message)}` : ''}${delay}`);
  }
  if (action.type === 'websocket') {
    const close = action.close ? ` close ${action.close.code ?? 1000}` : '';
    return cut(`websocket ${action.messages?.length ?? 0} messages${close}${delay}`);
  }
  const headers = action.headers ? Object.keys(action.headers).length : 0;
  const pace = action.bytesPerSecond ? ` ${action.bytesPerSecond} B/s` : '';
  const stop = action.cut ? ` cut@${action.cut.afterBytes} ${action.cut.end}` : '';
  return cut(
    `respond ${action.status}${action.body ? ` ${action.body.type}` : ''}${headers ? ` +${headers} headers` : ''}${pace}${stop}${delay}`,
  );
}

export function summarizeRule(rule: MockRule, config: Pick<MockConfigView, 'hits'>): MockRuleSummary {
  return {
    id: rule.id,
    ...(rule.name ? { name: rule.name } : {}),
    enabled: rule.enabled,
    match: describeMatch(rule.match),
    action: describeAction(rule.action),
    hits: config.hits[rule.id] ?? 0,
  };
}

/** Where the config stands after a change; `network_get_mock_config` has the rules in full. */
export function summarizeState(config: MockConfigView): MockStateSummary {
  return { revision: config.revision, enabled: config.enabled, ruleCount: config.rules.length, sync: config.sync };
}
