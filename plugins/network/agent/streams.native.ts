import type * as Streams from './streams.js';

export { encodeMessage, MessageQueue, type StreamSink, utf8Length } from './streams.js';

// streams.ts in React Native's tree (scripts/build-agent-package.js puts it in place): React Native's
// taps hand a response body over whole when its XHR ends (react-native-taps.ts), never in chunks,
// so no body arrives in parts there: the body goes with its `completed` notification.

export class LiveBody implements Pick<Streams.LiveBody, 'arrived' | 'stop'> {
  arrived(): void {}
  stop(): void {}
}
