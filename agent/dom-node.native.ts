import type * as Dom from './dom-node.js';

export type { DomLike } from './dom-node.js';

// dom-node.ts in React Native's tree (scripts/build-agent-package.js puts it in place): no DOM there.

export const isDomNode: typeof Dom.isDomNode = (_x): _x is Dom.DomLike => false;
export const describeNode: typeof Dom.describeNode = (node) => node.nodeName;
