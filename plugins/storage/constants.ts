// Plain values of the storage plugin's contract; protocol.ts re-exports them. Apart so that the
// agent (inside the app) imports them without the schemas.

export const STORAGE_ID = 'storage';
export const STORAGE_VERSION = '1.0.0';

/** Longest key the app sends whole; longer ones are cut and marked (they cannot be read back by name). */
export const MAX_KEY_CHARS = 4096;
/** Most keys in one page the app sends. */
export const MAX_PAGE_KEYS = 500;
/** Characters of a value the app sends in one answer; a longer text is read in slices. */
export const MAX_VALUE_CHARS = 2_000_000;
/** Characters of a value preview in a key list. */
export const PREVIEW_CHARS = 120;
