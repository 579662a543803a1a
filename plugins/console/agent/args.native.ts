import type { SerializeLimits, Serializer } from '../../../agent/serialize.js';
import type { SerializedValue } from '../../../shared/serialized-value.js';

// React Native's copy of args.ts (within its bundle budget): the Serializer for every argument.

/** Serializes the first `n` of a console call's arguments. */
export function serializeArgs(values: readonly unknown[], n: number, _: SerializeLimits, s: Serializer) {
  s.reset();
  return values.slice(0, n).map((v): SerializedValue => s.value(v));
}

/** The approximate JSON characters of the last serializeArgs(). */
export const argsSize = (s: Serializer): number => s.size;
