import type { Validate } from './frame.js';
import type { Message, MessageType } from './messages.js';

// The agent's check of what the inspector sends: the fields it reads have the right JSON kind.
// The inspector validates everything against the full schemas; the agent only has to not trip over
// a frame, so it carries no schema library (docs/protocol.md, "Validation").

// `id`: a string of 1 to 200 characters, like every id and name of the protocol; `plugin`: a plugin id.
type Kind = 'id' | 'plugin' | 'string' | 'number' | 'boolean' | 'object' | 'array';
type Fields<T extends MessageType> = {
  [K in Exclude<keyof Extract<Message, { type: T }>, 'type'>]?: Kind | `${Kind}?`;
};

const SHAPES: { [T in MessageType]: Fields<T> } = {
  hello: { protocolVersion: 'number', app: 'object', device: 'object', plugins: 'array' },
  welcome: {
    protocolVersion: 'number',
    sessionId: 'id',
    resumeSecret: 'string',
    resumed: 'boolean',
    plugins: 'object',
    heartbeatIntervalMs: 'number',
    maxFrameBytes: 'number',
    batches: 'boolean?',
    binaryNotifications: 'boolean?',
  },
  reject: { reason: 'string', message: 'string', supportedVersions: 'array' },
  notification: { plugin: 'plugin', method: 'id' },
  batch: { frames: 'array' },
  request: { id: 'id', plugin: 'plugin', method: 'id', timeoutMs: 'number?' },
  'reply-ok': { id: 'id' },
  'reply-error': { id: 'id', error: 'object' },
  cancel: { id: 'id' },
  heartbeat: { t: 'number' },
  'protocol-error': { code: 'string', message: 'string', id: 'id?' },
};

const kindOf = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
const isKind = (v: unknown, kind: string) =>
  kind === 'id'
    ? typeof v === 'string' && v.length > 0 && v.length <= 200
    : kind === 'plugin'
      ? typeof v === 'string' && /^[a-z][a-z0-9-]{0,31}$/.test(v)
      : kindOf(v) === kind;

function fieldIssue(value: Record<string, unknown>, fields: Record<string, string>): string | undefined {
  for (const name in fields) {
    const want = fields[name] as string;
    const optional = want.endsWith('?');
    const v = value[name];
    if (v === undefined && optional) continue;
    if (!isKind(v, optional ? want.slice(0, -1) : want)) return `${name}: expected ${want.replace('?', '')}`;
  }
  return undefined;
}

/** The cheap check: known fields have the right kinds; a welcome's plugin lists are lists of ids. */
export const checkShape: Validate = (value) => {
  const type = value.type as MessageType;
  let issue = fieldIssue(value, SHAPES[type] as Record<string, string>);
  if (!issue && type === 'welcome') {
    const plugins = value.plugins as Record<string, unknown>;
    for (const list of ['accepted', 'incompatible']) {
      const items = plugins[list];
      if (!Array.isArray(items) || items.some((p) => kindOf(p) !== 'object' || !isKind(p.id, 'id'))) {
        issue = `plugins.${list}: expected a list of { id }`;
      }
    }
  }
  if (!issue && type === 'batch') {
    const frames = value.frames as Record<string, unknown>[];
    const at = frames.findIndex(
      (f) => kindOf(f) !== 'object' || f.type !== 'notification' || fieldIssue(f, SHAPES.notification) !== undefined,
    );
    if (frames.length === 0) issue = 'frames: expected at least one notification';
    else if (at >= 0) issue = `frames[${at}]: expected a notification`;
  }
  if (!issue && type === 'reply-error') {
    issue = fieldIssue(value.error as Record<string, unknown>, { code: 'string', message: 'string' });
    if (issue) issue = `error.${issue}`;
  }
  return issue ? { ok: false, issue } : { ok: true, message: value as unknown as Message };
};
