type Json = Record<string, unknown>;

/** Keywords whose value is a map of names to schemas: the names are data (a property may be called "pattern"). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);
/** Keywords whose value is one schema. */
const SCHEMA_VALUES = new Set([
  'additionalProperties',
  'items',
  'additionalItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

/**
 * What an answer's schema need not tell an agent: limits that only bound what is valid to send. The
 * answer still matches what remains, so a client's validation of structuredContent keeps working.
 */
const OUTPUT_ONLY_LIMITS = new Set([
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'default',
]);

/** The bounds zod writes for every z.number().int(): they say nothing a caller needs. */
const SAFE_INTEGER_BOUNDS: Record<string, number> = {
  minimum: Number.MIN_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
};

/**
 * How deep an answer's objects are spelled out: 0 is the answer itself, so a field that is an object
 * or a list of objects is only typed. What the fields hold is the description's business.
 */
const OUTPUT_OBJECT_LEVELS = 0;
/** Keywords whose schemas describe an object's members: one level deeper. */
const MEMBER_KEYWORDS = new Set(['properties', 'patternProperties', 'additionalProperties', 'dependentSchemas']);

/**
 * A tool's JSON Schema as sent in tools/list, shorter but accepting the same values (inputs) or at
 * least the same values (outputs): no `$schema`, no safe-integer bounds, no `additionalProperties`
 * that allows anything. An output schema is a contract for clients that validate answers (a model
 * reads the tool's description and input schema): it keeps the answer's fields with their types,
 * `required` and enums (objects below them are typed, see OUTPUT_OBJECT_LEVELS), and loses
 * descriptions, the limits of `OUTPUT_ONLY_LIMITS`, `additionalProperties: false` and a `type` its
 * `const` or `enum` fixes. Property names are never touched.
 */
export function compactSchema(schema: Json, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = schema;
  return compactNode(rest, io, 0) as Json;
}

function compactNode(node: unknown, io: 'input' | 'output', level: number): unknown {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
  if (io === 'output' && level > OUTPUT_OBJECT_LEVELS && isStructured(node as Json)) {
    const types = typesOf(node as Json);
    return types === undefined ? {} : { type: types.length === 1 ? types[0] : types };
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (SAFE_INTEGER_BOUNDS[key] === value) continue;
    if (key === 'additionalProperties' && isAnything(value)) continue;
    if (key === 'propertyNames' && isEqual(value, { type: 'string' })) continue; // JSON keys are strings anyway
    if (io === 'output') {
      if (OUTPUT_ONLY_LIMITS.has(key)) continue;
      if (key === 'additionalProperties' && value === false) continue;
      if (key === 'type' && typeFixedByValues(node as Json)) continue;
      if (key === 'description' && typeof value === 'string') continue;
    }
    const next = MEMBER_KEYWORDS.has(key) ? level + 1 : level;
    if (SCHEMA_MAPS.has(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, compactNode(sub, io, next)]));
    } else if (SCHEMA_VALUES.has(key)) {
      out[key] = Array.isArray(value) ? value.map((sub) => compactNode(sub, io, next)) : compactNode(value, io, next);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((sub) => compactNode(sub, io, next));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** The JSON types a schema allows, when its `type`s (or its choices' types) say so. */
function typesOf(node: Json): string[] | undefined {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type as string[];
  const choices = (node.anyOf ?? node.oneOf) as Json[] | undefined;
  if (!choices) return undefined;
  const types = new Set<string>();
  for (const choice of choices) {
    const some = typesOf(choice);
    if (!some) return undefined;
    for (const type of some) types.add(type);
  }
  return [...types];
}

/** An object (or a choice of shapes) whose members the schema spells out. */
function isStructured(node: Json): boolean {
  return ['properties', 'patternProperties', 'additionalProperties', 'anyOf', 'oneOf', 'allOf'].some(
    (key) => key in node,
  );
}

function isEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `true` or `{}`: what JSON Schema assumes for additionalProperties when it is absent. */
function isAnything(schema: unknown): boolean {
  return schema === true || (!!schema && typeof schema === 'object' && Object.keys(schema).length === 0);
}

/** `const` or an `enum` of one JSON type already says what type the value is. */
function typeFixedByValues(node: Json): boolean {
  if (typeof node.type !== 'string') return false;
  const values = 'const' in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  return values !== undefined && values.length > 0 && values.every((v) => jsonType(v) === node.type);
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
