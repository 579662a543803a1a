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
  return `${method}, ${how} ${value}`;
}

/** A rule's answer in words, as the Mocks tab lists it. */
export function describeAction(action: MockAction): string {
  const delay = action.delayMs ? ` after ${action.delayMs} ms` : '';
  if (action.type === 'networkError') return `network error${action.message ? ` "${action.message}"` : ''}${delay}`;
  const body = action.body ? ` with a ${action.body.type} body` : '';
  return `respond ${action.status}${body}${delay}`;
}

/** A whole rule in one line: its name, what it matches and how it answers. */
export function describeRule(
  rule: Pick<MockRuleInput, 'match' | 'action'> & { name?: string; enabled?: boolean },
): string {
  const name = rule.name ? `"${rule.name}": ` : '';
  const off = rule.enabled === false ? ' (disabled)' : '';
  return `${name}${describeMatch(rule.match)} → ${describeAction(rule.action)}${off}`;
}
