import type { RequestErrorCode } from './messages.js';

/** A request that failed, with the reason as a code both ends understand. */
export class RequestError extends Error {
  constructor(
    readonly code: RequestErrorCode,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}
