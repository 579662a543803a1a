import { config } from 'zod';

// Zod compiles object parsers with `new Function` when it may; the window's CSP forbids eval, and
// zod's probe for it (a caught `new Function("")`) is reported as a CSP violation on every load.
// Imported first by main.tsx, before any schema parses.
config({ jitless: true });
