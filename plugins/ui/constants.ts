// The ui plugin's plain values, apart from protocol.ts so the agent part imports them without zod.

export const UI_PROTOCOL_ID = 'ui';
export const UI_PROTOCOL_VERSION = '1.0.0';
