/** WebSocket close codes the inspector and agents use. 4xxx are Porthole's own. */
export const CloseCode = {
  normal: 1000,
  goingAway: 1001,
  frameTooLarge: 1009,
  internalError: 1011,
  handshakeTimeout: 4000,
  rejected: 4001,
  heartbeatTimeout: 4002,
  replaced: 4003,
  tooManyProtocolErrors: 4004,
  notReading: 4005,
} as const;
export type CloseCodeName = keyof typeof CloseCode;

export const Limits = {
  /** Largest frame either side accepts, in bytes of UTF-8. */
  maxFrameBytes: 16 * 1024 * 1024,
  /** Largest hello the host reads; a hello is small (its icon is at most 64 KiB). */
  maxHelloBytes: 256 * 1024,
  /** Deepest nesting of arrays and objects in a frame, the frame object itself being level 1. */
  maxDepth: 64,
  /** Most values (array elements and object members) in one frame. */
  maxValues: 100_000,
  /** Most notifications in one batch frame. */
  maxBatchFrames: 1000,
  /** Longest `message` in a protocol-error, reject or reply-error; longer ones are cut. */
  maxErrorMessageChars: 2048,
  /** The first frame must be a hello within this time. */
  handshakeTimeoutMs: 5_000,
  /** Each side sends a heartbeat this often; silence for 3 intervals closes the link. */
  heartbeatIntervalMs: 10_000,
  heartbeatMissesAllowed: 3,
  /** Default time a request waits for its reply. */
  requestTimeoutMs: 5_000,
  /** Requests a sender may have waiting for replies at once. */
  maxRequestsInFlight: 256,
  /** Malformed frames tolerated on one connection before it is closed. */
  maxProtocolErrors: 50,
  /**
   * Bytes the host lets wait unsent for one app that does not read its socket; past it the link is
   * terminated (4005). At most this plus one frame is ever queued per app.
   */
  maxBufferedBytes: 16 * 1024 * 1024,
} as const;
