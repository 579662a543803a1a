// The console plugin's plain values, apart from wire.ts so the agent part imports them without zod.

export const CONSOLE_PROTOCOL_ID = 'console';
export const CONSOLE_PROTOCOL_VERSION = '1.0.0';

/** The console methods the agent wraps. */
export const CONSOLE_METHODS = [
  'log',
  'info',
  'warn',
  'error',
  'debug',
  'trace',
  'assert',
  'table',
  'dir',
  'group',
  'groupCollapsed',
  'groupEnd',
  'count',
  'countReset',
  'time',
  'timeLog',
  'timeEnd',
] as const;
