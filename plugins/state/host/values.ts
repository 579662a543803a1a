import { isSecretKey, keyForm, REDACTED, redactValue, type ValueRedaction } from '../../../shared/redaction.js';
import { keyParts, type PathPart, parsePath } from '../path.js';
import type { RedactionRules } from '../protocol.js';

// Values as an AI agent reads them: the agent's tagged form (SerializedValue) turned into plain JSON
// where JSON can say it (../plain.ts), after the redaction rules. The window gets the tagged form, unredacted.

/** Rules ready to apply: key names and dotted paths in redaction's compared form. */
export interface CompiledRules extends ValueRedaction {
  keys: ReadonlySet<string>;
  paths: ReadonlySet<string>;
}

export function compileRules(rules: RedactionRules): CompiledRules {
  const paths = new Set<string>();
  for (const p of rules.paths) {
    try {
      paths.add(keyParts(parsePath(p)).map(keyForm).join('.'));
    } catch {
      paths.add(p.split('.').map(keyForm).join('.'));
    }
  }
  return { keys: new Set(rules.keys.map(keyForm)), paths };
}

/** `value` found at `path` in a state, with what the rules hide replaced by `[redacted]`. */
export function redactAt(value: unknown, path: string | readonly PathPart[], rules: CompiledRules): unknown {
  let keys: string[];
  try {
    keys = keyParts(typeof path === 'string' ? parsePath(path) : path);
  } catch {
    keys = [];
  }
  const forms = keys.map(keyForm);
  if (value !== null && value !== undefined) {
    for (let i = 0; i < keys.length; i++) {
      if (isSecretKey(keys[i]!, rules.keys) || rules.paths.has(forms.slice(0, i + 1).join('.'))) return REDACTED;
    }
  }
  return redactValue(value, rules, forms);
}

/** How many items or keys a serialized collection shows. */
export function shown(v: unknown): number {
  const t = v as (Record<string, unknown> & { $?: unknown }) | null;
  if (!t || typeof t !== 'object') return 0;
  if (Array.isArray(t.items)) return t.items.length;
  if (Array.isArray(t.entries)) return t.entries.length;
  if (t.props && typeof t.props === 'object') return Object.keys(t.props).length;
  return 0;
}
