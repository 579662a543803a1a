// Its own file: the agent's startup code throws it without loading the encoder.

/** A frame this side will not send: over a limit of docs/protocol.md, or not expressible as JSON. */
export class FrameLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameLimitError';
  }
}
