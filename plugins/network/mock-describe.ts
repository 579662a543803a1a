import type { MockAction, MockMatch, MockRuleInput } from './protocol.js';

/** A rule's match in words, as the Mocks tab lists it. */
export function describeMatch(match: MockMatch): string {
  const method = match.method && match.method !== '*' ? match.method.toUpperCase() : 'any method';
  const how = { contains: 'URL contains', exact: 'URL is', regex: 'URL matches', glob: 'URL matches' }[match.url.kind];
  const value =
    match.url.kind === 'regex'
      ? `/${match.url.value}/${match.url.flags ?? ''}`
      : match.url.kind === 'glob'
        ? match.url.value
        : `"${match.url.value}"`;
  const gql = match.graphql ? `, GraphQL ${match.graphql}` : '';
  return `${method}, ${how} ${value}${gql}`;
}

/** A rule's answer in words, as the Mocks tab lists it. */
export function describeAction(action: MockAction): string {
  const delay = action.delayMs ? ` after ${action.delayMs} ms` : '';
  if (action.type === 'networkError') {
    const code = action.code ? ` ${action.code}` : '';
    return `network error${code}${action.message ? ` "${action.message}"` : ''}${delay}`;
  }
  if (action.type === 'websocket') {
    const n = action.messages?.length ?? 0;
    const close = action.close ? `, then close ${action.close.code ?? 1000}` : '';
    return `a WebSocket that sends ${n} ${n === 1 ? 'message' : 'messages'}${close}${delay}`;
  }
  const body = action.body ? ` with a ${action.body.type} body` : '';
  const pace = action.bytesPerSecond ? `, ${action.bytesPerSecond} bytes/s` : '';
  const cut = action.cut ? `, cut after ${action.cut.afterBytes} bytes (${action.cut.end})` : '';
  const trailers = action.trailers ? `, trailers ${Object.keys(action.trailers).join(', ')}` : '';
  return `respond ${action.status}${body}${trailers}${pace}${cut}${delay}`;
}

/** A whole rule in one line: its name, what it matches and how it answers. */
export function describeRule(
  rule: Pick<MockRuleInput, 'match' | 'action'> & { name?: string; enabled?: boolean },
): string {
  const name = rule.name ? `"${rule.name}": ` : '';
  const off = rule.enabled === false ? ' (disabled)' : '';
  return `${name}${describeMatch(rule.match)} → ${describeAction(rule.action)}${off}`;
}
