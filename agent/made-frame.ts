import { FrameLimitError } from '../shared/protocol/frame-limit-error.js';
import type { Notification } from '../shared/protocol/messages.js';

/** Params made when the notification leaves (by then the plugin must not depend on when that is). */
export type LazyParams = () => unknown;

/**
 * The frame with its params made, if they were lazy (in place: each frame is made for one
 * notification, and a copy per notification would only feed the app's collector); a
 * FrameLimitError when making them throws, the frame left as it was.
 */
export function madeFrame(frame: Notification): Notification {
  if (typeof frame.params !== 'function') return frame;
  try {
    frame.params = (frame.params as LazyParams)();
    return frame;
  } catch (e) {
    throw new FrameLimitError(`its params could not be made: ${(e as Error)?.message ?? e}`);
  }
}
