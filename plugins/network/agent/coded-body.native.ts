import type * as CodedBody from './coded-body.js';

// coded-body.ts in React Native's tree (scripts/build-agent-package.js puts it in place): React
// Native's taps hand every body over decoded, and there is no decoder: a body still in a
// Content-Encoding would go as the bytes it is, marked undecoded, as coded-body.ts does without one.

export const codedBody: typeof CodedBody.codedBody = (agent, seen, coding, type, end) =>
  end(agent.bodyParts(seen, type, undefined, coding, true));
