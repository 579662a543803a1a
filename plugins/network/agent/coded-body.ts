import { concatBytes } from '../../../shared/bytes.js';
import type { Decoder } from './node-decode.js';
import type { SeenBody } from './observed.js';

// A response body still in its Content-Encoding, as Node's taps see it: decoded before it goes,
// apart from the app (nothing of the app's waits for it; the decoded body follows when zlib is done).
// coded-body.native.ts takes this file's place in React Native's tree, whose taps hand bodies over
// decoded.

/** What this needs of the agent (network-agent.ts's NetworkAgent; named so, no import cycle). */
export interface CodedSink<Parts> {
  readonly decoder: Decoder | undefined;
  readonly maxBodyBytes: number;
  bodyParts(
    seen: SeenBody,
    contentType: string | undefined,
    declared?: number,
    coding?: string,
    undecoded?: boolean,
  ): Parts;
}

/** Hands `end` the body's parts: decoded with the taps' decoder, else the bytes as they are, marked undecoded. */
export function codedBody<Parts>(
  agent: CodedSink<Parts>,
  seen: SeenBody,
  coding: string,
  type: string | undefined,
  end: (parts: Parts) => void,
): void {
  decode(agent, seen, coding).then(
    (decoded) => end(agent.bodyParts(decoded ?? seen, type, undefined, coding, !decoded)),
    () => end(agent.bodyParts(seen, type, undefined, coding, true)),
  );
}

async function decode(agent: CodedSink<unknown>, seen: SeenBody, encoding: string): Promise<SeenBody | undefined> {
  if (!agent.decoder) return undefined;
  const decoded = await agent.decoder(concatBytes(seen.chunks, seen.kept), encoding, agent.maxBodyBytes);
  if (!decoded) return undefined;
  const cut = decoded.cut || seen.cut;
  return { chunks: [decoded.bytes], kept: decoded.bytes.byteLength, total: decoded.bytes.byteLength, cut };
}
