import type * as TextParts from './text-parts.js';

// text-parts.ts in React Native's tree (scripts/build-agent-package.js puts it in place): no page, so
// a text body goes as the text it is.

export const inPage: typeof TextParts.inPage = () => false;
export const textParts: typeof TextParts.textParts = (body) => body && { body };
