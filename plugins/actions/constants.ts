// The actions plugin's plain values, apart from protocol.ts so the agent part imports them without zod.

export const ACTIONS_PROTOCOL_ID = 'actions';
export const ACTIONS_PROTOCOL_VERSION = '1.0.0';
