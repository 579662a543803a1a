/**
 * The form the tools browser builds from a tool's input JSON Schema: fields from the schema, the
 * values a user typed (strings, mostly), and the arguments they turn into, with per-field errors.
 * Anything the form cannot express becomes a JSON field, and the whole form has a raw-JSON fallback.
 */

type Json = Record<string, unknown>;

interface Common {
  name: string;
  /** Dotted path from the root, used as the id and the error key. */
  path: string;
  title: string;
  description?: string;
  required: boolean;
  default?: unknown;
}

export type Field =
  | (Common & {
      kind: 'string';
      minLength?: number;
      maxLength?: number;
      pattern?: string;
      format?: string;
      multiline: boolean;
    })
  | (Common & { kind: 'number'; integer: boolean; minimum?: number; maximum?: number })
  | (Common & { kind: 'boolean' })
  | (Common & { kind: 'enum'; options: unknown[] })
  | (Common & { kind: 'list'; item: 'string' | 'number' | 'integer'; minItems?: number; maxItems?: number })
  | (Common & { kind: 'object'; fields: Field[] })
  | (Common & { kind: 'json' });

export type FieldValue = string | boolean | FormValues;
export interface FormValues {
  [name: string]: FieldValue;
}

export interface ArgsResult {
  args: Record<string, unknown>;
  /** path → message; empty when the args are good to send. */
  errors: Record<string, string>;
}

/** The fields of an object schema, or undefined when the root is not an object with properties the form can show. */
export function fieldsFromSchema(schema: unknown): Field[] | undefined {
  const root = unwrap(asObject(schema));
  if (!root || typeOf(root) !== 'object') return undefined;
  return objectFields(root, '');
}

function objectFields(schema: Json, prefix: string): Field[] {
  const properties = asObject(schema.properties) ?? {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, sub]) =>
    toField(name, prefix ? `${prefix}.${name}` : name, asObject(sub) ?? {}, required.has(name)),
  );
}

function toField(name: string, path: string, raw: Json, required: boolean): Field {
  const schema = unwrap(raw) ?? raw;
  const common: Common = {
    name,
    path,
    title: typeof schema.title === 'string' ? schema.title : name,
    description: str(schema.description) ?? str(raw.description),
    required,
    default: schema.default ?? raw.default,
  };
  if (Array.isArray(schema.enum)) return { ...common, kind: 'enum', options: schema.enum };
  if (Array.isArray(schema.type) && schema.type.filter((t) => t !== 'null').length > 1)
    return { ...common, kind: 'json' };
  if ('const' in schema) return { ...common, kind: 'enum', options: [schema.const] };
  switch (typeOf(schema)) {
    case 'string':
      return {
        ...common,
        kind: 'string',
        minLength: num(schema.minLength),
        maxLength: num(schema.maxLength),
        pattern: str(schema.pattern),
        format: str(schema.format),
        multiline: (num(schema.maxLength) ?? Number.POSITIVE_INFINITY) > 200 && /body|text|script|content/i.test(name),
      };
    case 'number':
    case 'integer':
      return {
        ...common,
        kind: 'number',
        integer: typeOf(schema) === 'integer',
        minimum: num(schema.minimum) ?? plusOne(schema.exclusiveMinimum, typeOf(schema) === 'integer'),
        maximum: num(schema.maximum) ?? minusOne(schema.exclusiveMaximum, typeOf(schema) === 'integer'),
      };
    case 'boolean':
      return { ...common, kind: 'boolean' };
    case 'array': {
      const items = unwrap(asObject(schema.items));
      const itemType = items && !Array.isArray(items.enum) ? typeOf(items) : undefined;
      if (itemType === 'string' || itemType === 'number' || itemType === 'integer') {
        return {
          ...common,
          kind: 'list',
          item: itemType,
          minItems: num(schema.minItems),
          maxItems: num(schema.maxItems),
        };
      }
      return { ...common, kind: 'json' };
    }
    case 'object':
      if (asObject(schema.properties) && Object.keys(schema.properties as Json).length > 0) {
        return { ...common, kind: 'object', fields: objectFields(schema, path) };
      }
      return { ...common, kind: 'json' };
    default:
      return { ...common, kind: 'json' };
  }
}

/** The values a fresh form starts with: defaults where the schema has them, else empty. */
export function initialValues(fields: Field[]): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const d = field.default;
    switch (field.kind) {
      case 'boolean':
        values[field.name] = d === true ? 'true' : d === false ? 'false' : field.required ? 'false' : '';
        break;
      case 'object':
        values[field.name] = initialValues(field.fields);
        break;
      case 'enum':
        values[field.name] = d === undefined ? '' : JSON.stringify(d);
        break;
      case 'list':
        values[field.name] = Array.isArray(d) ? d.join('\n') : '';
        break;
      case 'json':
        values[field.name] = d === undefined ? '' : JSON.stringify(d, null, 2);
        break;
      default:
        values[field.name] = d === undefined ? '' : String(d);
    }
  }
  return values;
}

/**
 * The form filled with earlier arguments ("Run again" from the call history), or undefined when
 * some argument has no field (then the raw-JSON editor shows them as they were).
 */
export function valuesFromArgs(fields: Field[], args: Record<string, unknown>): FormValues | undefined {
  const values = initialValues(fields);
  for (const [name, value] of Object.entries(args)) {
    const field = fields.find((f) => f.name === name);
    if (!field || value === undefined) return undefined;
    switch (field.kind) {
      case 'object': {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
        const nested = valuesFromArgs(field.fields, value as Record<string, unknown>);
        if (!nested) return undefined;
        values[name] = nested;
        break;
      }
      case 'boolean':
        if (typeof value !== 'boolean') return undefined;
        values[name] = String(value);
        break;
      case 'enum':
        values[name] = JSON.stringify(value);
        break;
      case 'list':
        if (!Array.isArray(value)) return undefined;
        values[name] = value.join('\n');
        break;
      case 'json':
        values[name] = JSON.stringify(value, null, 2);
        break;
      default:
        if (typeof value === 'object' && value !== null) return undefined;
        values[name] = String(value);
    }
  }
  return values;
}

/** Turns what the user typed into the tool's arguments; empty optional fields are left out. */
export function toArgs(fields: Field[], values: FormValues): ArgsResult {
  const errors: Record<string, string> = {};
  const args = collect(fields, values, errors);
  return { args, errors };
}

function collect(fields: Field[], values: FormValues, errors: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = values[field.name];
    const value = convert(field, raw, errors);
    if (value !== undefined) out[field.name] = value;
    else if (field.required && !errors[field.path] && field.kind !== 'object') errors[field.path] = 'required';
  }
  return out;
}

function convert(field: Field, raw: FieldValue | undefined, errors: Record<string, string>): unknown {
  const fail = (message: string) => {
    errors[field.path] = message;
    return undefined;
  };
  if (field.kind === 'object') {
    const nested = typeof raw === 'object' ? raw : {};
    // An optional object the user never touched is left out; once touched, it must be complete.
    if (!field.required && JSON.stringify(nested) === JSON.stringify(initialValues(field.fields))) return undefined;
    return collect(field.fields, nested, errors);
  }
  const text = typeof raw === 'string' ? raw : raw === true ? 'true' : raw === false ? 'false' : '';
  switch (field.kind) {
    case 'string': {
      if (text === '' && !field.required) return undefined;
      if (text === '' && (field.minLength ?? 1) > 0) return undefined;
      if (field.minLength !== undefined && text.length < field.minLength) {
        return fail(`at least ${field.minLength} characters`);
      }
      if (field.maxLength !== undefined && text.length > field.maxLength)
        return fail(`at most ${field.maxLength} characters`);
      if (field.pattern && !safeRegExp(field.pattern)?.test(text)) return fail(`must match ${field.pattern}`);
      return text;
    }
    case 'number': {
      if (text.trim() === '') return undefined;
      const n = Number(text);
      if (!Number.isFinite(n)) return fail('must be a number');
      if (field.integer && !Number.isInteger(n)) return fail('must be a whole number');
      if (field.minimum !== undefined && n < field.minimum) return fail(`must be ≥ ${field.minimum}`);
      if (field.maximum !== undefined && n > field.maximum) return fail(`must be ≤ ${field.maximum}`);
      return n;
    }
    case 'boolean':
      return text === '' ? undefined : text === 'true';
    case 'enum':
      if (text === '') return undefined;
      try {
        return JSON.parse(text);
      } catch {
        return fail('pick one of the choices');
      }
    case 'list': {
      const items = text
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean);
      if (items.length === 0) return undefined;
      let list: (string | number)[] = items;
      if (field.item !== 'string') {
        const numbers = items.map(Number);
        const bad = items.find(
          (_, i) => !Number.isFinite(numbers[i]!) || (field.item === 'integer' && !Number.isInteger(numbers[i])),
        );
        if (bad !== undefined) return fail(`"${bad}" is not a ${field.item === 'integer' ? 'whole number' : 'number'}`);
        list = numbers;
      }
      if (field.minItems !== undefined && list.length < field.minItems) return fail(`at least ${field.minItems} items`);
      if (field.maxItems !== undefined && list.length > field.maxItems) return fail(`at most ${field.maxItems} items`);
      return list;
    }
    case 'json':
      if (text.trim() === '') return undefined;
      try {
        return JSON.parse(text);
      } catch (e) {
        return fail(`not valid JSON: ${(e as Error).message}`);
      }
  }
}

/** The raw-JSON editor's text: an object, or a message saying why not. */
export function parseRawArgs(text: string): { args?: Record<string, unknown>; error?: string } {
  if (text.trim() === '') return { args: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { error: 'the arguments must be a JSON object, e.g. {"limit": 10}' };
    }
    return { args: value as Record<string, unknown> };
  } catch (e) {
    return { error: `not valid JSON: ${(e as Error).message}` };
  }
}

// ---------------------------------------------------------------------------------------------

function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** `anyOf: [X, {type: 'null'}]` (a nullable X) is shown as X; other unions stay as they are. */
function unwrap(schema: Json | undefined): Json | undefined {
  if (!schema) return undefined;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const real = options.map(asObject).filter((o): o is Json => !!o && o.type !== 'null');
      if (real.length === 1) return { ...schema, ...real[0], [key]: undefined };
    }
  }
  return schema;
}

function typeOf(schema: Json): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return (schema.type as string[]).find((t) => t !== 'null');
  if (asObject(schema.properties)) return 'object';
  return undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

function plusOne(value: unknown, integer: boolean): number | undefined {
  return typeof value === 'number' ? (integer ? Math.floor(value) + 1 : value) : undefined;
}

function minusOne(value: unknown, integer: boolean): number | undefined {
  return typeof value === 'number' ? (integer ? Math.ceil(value) - 1 : value) : undefined;
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}
