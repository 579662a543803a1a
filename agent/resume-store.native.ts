import type * as Store from './resume-store.js';

export type { ResumeTicket } from './resume-store.js';

// resume-store.ts in React Native's tree (scripts/build-agent-package.js puts it in place): there is
// no sessionStorage, so the ticket lives in memory, as it did there before.

export class ResumeStore implements Pick<Store.ResumeStore, 'get' | 'forget' | 'set'> {
  private ticket: Store.ResumeTicket | undefined;
  get(): Store.ResumeTicket | undefined {
    return this.ticket;
  }
  forget(): void {
    this.ticket = undefined;
  }
  set(ticket: Store.ResumeTicket): void {
    this.ticket = ticket;
  }
}
