interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface ResumeTicket {
  sessionId: string;
  secret: string;
}

/**
 * Keeps the session's resume ticket in the page's sessionStorage, so a reload of the same tab
 * continues its session (and its captured data) instead of starting a new one. In memory elsewhere.
 */
export class ResumeStore {
  private ticket: ResumeTicket | undefined;
  private readonly storage: StorageLike | undefined;
  private readonly key: string;

  constructor(appId: string) {
    this.key = `porthole.session.${appId}`;
    try {
      this.storage = (globalThis as { sessionStorage?: StorageLike }).sessionStorage;
      const saved = this.storage?.getItem(this.key);
      const parsed = saved ? (JSON.parse(saved) as Partial<ResumeTicket>) : undefined;
      if (typeof parsed?.sessionId === 'string' && typeof parsed.secret === 'string') {
        this.ticket = { sessionId: parsed.sessionId, secret: parsed.secret };
      }
    } catch {
      // storage blocked or corrupt: start fresh
    }
  }

  get(): ResumeTicket | undefined {
    return this.ticket;
  }

  /** Another connection took this session over (e.g. a duplicated tab): the next one starts afresh. */
  forget(): void {
    this.ticket = undefined;
    try {
      (this.storage as { removeItem?(key: string): void } | undefined)?.removeItem?.(this.key);
    } catch {
      // nothing stored
    }
  }

  set(ticket: ResumeTicket): void {
    this.ticket = ticket;
    try {
      this.storage?.setItem(this.key, JSON.stringify(ticket));
    } catch {
      // not persisted; memory still has it
    }
  }
}
