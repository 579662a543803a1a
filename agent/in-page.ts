/** A page (an Electron renderer too): the agent's socket there sends binary messages as Blobs. */
export const inPage = () => typeof Blob === 'function' && (globalThis as { document?: unknown }).document !== undefined;
