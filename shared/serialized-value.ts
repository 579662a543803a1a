/**
 * A value as the agent serialized it (console arguments, evaluated expressions, React props and
 * hooks, store state): JSON, with what JSON cannot say as tagged objects `{ $: kind, ... }`.
 * A value the agent cut (depth, size, count) says so: `{ $: 'cut' }`, `length`/`size` above the
 * items sent, `more`. Made by agent/serialize.ts; the host and the window read it defensively,
 * since an app may send anything (its wire schema is `z.json()`).
 */
export type SerializedValue =
  | string
  | number
  | boolean
  | null
  | { $: 'undefined' }
  | { $: 'number'; v: 'NaN' | 'Infinity' | '-Infinity' | '-0' }
  | { $: 'bigint'; v: string }
  | { $: 'symbol'; v: string }
  | { $: 'string'; v: string; length: number } // cut: v is the start
  | { $: 'function'; name: string }
  | { $: 'array'; cls?: string; items: SerializedValue[]; length: number }
  | { $: 'object'; cls?: string; props: Record<string, SerializedValue>; more?: number }
  | { $: 'map'; cls?: string; entries: [SerializedValue, SerializedValue][]; size: number }
  | { $: 'set'; cls?: string; items: SerializedValue[]; size: number }
  | { $: 'typed'; cls: string; items?: (number | string)[]; length: number }
  | { $: 'date'; v: string }
  | { $: 'regexp'; v: string }
  | {
      $: 'error';
      name: string;
      message: string;
      stack?: string;
      cause?: SerializedValue;
      errors?: SerializedValue[];
      props?: Record<string, SerializedValue>;
    }
  | { $: 'node'; v: string; nodeType: number }
  | { $: 'circular' }
  | { $: 'getter' }
  | { $: 'cut'; why: 'depth' | 'bytes'; cls?: string }
  | { $: 'thrown'; message: string };
