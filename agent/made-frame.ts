import { FrameLimitError } from '../shared/protocol/frame-limit-error.js';
import type { Notification } from '../shared/protocol/messages.js';

/** Params made when the notification leaves (by then the plugin must not depend on when that is). */
export type LazyParams = () => unknown;

/** The frame with its params made, if they were lazy; a FrameLimitError when making them throws. */
export function madeFrame(frame: Notification): Notification {
  if (typeof frame.params !== 'function') return frame;
  try {
    return { ...frame, params: (frame.params as LazyParams)() };
  } catch (e) {
    throw new FrameLimitError(`its params could not be made: ${(e as Error)?.message ?? e}`);
  }
}
