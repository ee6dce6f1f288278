import { EmailTakenError, EmailUnknownError, UserNotFoundError, type NewUser, type User, type UserEvent } from './api.js';

/** An in-memory user store; insertion order is creation order. */
export class UserStore {
  readonly #users = new Map<string, User>();
  /** Every change, in order; a change's sequence number is its index + 1. */
  readonly #log: UserEvent[] = [];
  /** Subscribers waiting for the next change. */
  readonly #waiting = new Set<() => void>();

  #publish(e: UserEvent): void {
    this.#log.push(e);
    for (const wake of this.#waiting) wake();
    this.#waiting.clear();
  }

  /**
   * The changes after sequence number `after` (all new ones when `undefined`), then each new
   * one as it happens, until `signal` aborts.
   */
  async *changes(after: number | undefined, signal: AbortSignal): AsyncGenerator<{ seq: number; event: UserEvent }, void, undefined> {
    let next = after ?? this.#log.length;
    while (!signal.aborted) {
      while (next < this.#log.length) {
        next++;
        yield { seq: next, event: this.#log[next - 1] as UserEvent };
      }
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          signal.removeEventListener('abort', wake);
          this.#waiting.delete(wake);
          resolve();
        };
        this.#waiting.add(wake);
        signal.addEventListener('abort', wake, { once: true });
      });
    }
  }

  create(input: NewUser): User {
    const email = input.email.toLowerCase();
    for (const u of this.#users.values()) if (u.email.toLowerCase() === email) throw new EmailTakenError(input.email);
    const user: User = { id: crypto.randomUUID(), name: input.name, email: input.email, createdAt: new Date() };
    this.#users.set(user.id, user);
    this.#publish({ kind: 'created', user });
    return user;
  }

  /** The user with this e-mail address (case-insensitive). @throws {EmailUnknownError} */
  byEmail(email: string): User {
    const lower = email.toLowerCase();
    for (const u of this.#users.values()) if (u.email.toLowerCase() === lower) return u;
    throw new EmailUnknownError(email);
  }

  get(id: string): User {
    const u = this.#users.get(id.toLowerCase());
    if (u === undefined) throw new UserNotFoundError(id);
    return u;
  }

  list(offset: number, limit: number): { items: User[]; total: number } {
    return { items: [...this.#users.values()].slice(offset, offset + limit), total: this.#users.size };
  }

  delete(id: string): void {
    if (!this.#users.delete(id.toLowerCase())) throw new UserNotFoundError(id);
    this.#publish({ kind: 'deleted', id: id.toLowerCase() });
  }
}
