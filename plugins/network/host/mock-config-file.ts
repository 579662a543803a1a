import { describeIssues } from '../../../shared/zod-issues.js';
import { type MockConfig, MockConfigSchema, type MockConfigView, MockRuleSchema } from '../protocol.js';

export type MockConfigRepair = NonNullable<MockConfigView['repaired']>;
type DroppedRule = MockConfigRepair['dropped'][number];

const MAX_RULES = 500;

/**
 * A saved mock config that failed its schema, repaired: every rule that is valid on its own is kept
 * (in order, first of each id), every other one is listed with the reason it was dropped.
 */
export function salvageMockConfig(stored: unknown): { config: MockConfig; dropped: DroppedRule[] } {
  const record = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
  const rawRules = Array.isArray(record.rules) ? record.rules : [];
  const dropped: DroppedRule[] = [];
  if (!Array.isArray(record.rules) && record.rules !== undefined)
    dropped.push({ index: -1, reason: 'rules: expected a list of rules; nothing could be kept' });
  const rules: MockConfig['rules'] = [];
  const ids = new Set<string>();
  for (const [index, raw] of rawRules.entries()) {
    const described = labelOf(raw);
    const parsed = MockRuleSchema.safeParse(raw);
    let reason: string | undefined;
    if (!parsed.success) reason = describeIssues(parsed.error);
    else if (ids.has(parsed.data.id)) reason = `the id "${parsed.data.id}" is used by an earlier rule`;
    else if (rules.length >= MAX_RULES) reason = `more than ${MAX_RULES} rules; the first ${MAX_RULES} are kept`;
    if (reason !== undefined || !parsed.success) {
      dropped.push({ index, ...described, reason: reason ?? 'invalid' });
      continue;
    }
    ids.add(parsed.data.id);
    rules.push(parsed.data);
  }
  const revision = MockConfigSchema.shape.revision.safeParse(record.revision);
  const enabled = MockConfigSchema.shape.enabled.safeParse(record.enabled);
  return {
    // A new revision: apps that applied the old one take the repaired one.
    config: {
      revision: (revision.success ? revision.data : 0) + 1,
      enabled: enabled.success ? enabled.data : true,
      rules,
    },
    dropped,
  };
}

function labelOf(raw: unknown): { id?: string; name?: string } {
  if (typeof raw !== 'object' || raw === null) return {};
  const { id, name } = raw as Record<string, unknown>;
  return {
    id: typeof id === 'string' ? id.slice(0, 100) : undefined,
    name: typeof name === 'string' ? name.slice(0, 200) : undefined,
  };
}

/** The repair in one sentence, for the log and the window. */
export function describeRepair(appId: string, repair: MockConfigRepair): string {
  const rules = repair.dropped
    .map(
      (d) =>
        `${d.index >= 0 ? `rule ${d.index}` : 'the rules'}${d.id ? ` (${d.id}${d.name ? `, "${d.name}"` : ''})` : ''}: ${d.reason}`,
    )
    .join('; ');
  return `the saved mock rules of ${appId} were not all valid; kept ${repair.kept}, dropped ${repair.dropped.length}: ${rules}.${repair.backup ? ` The old file is kept as ${repair.backup}.` : ''}`;
}
