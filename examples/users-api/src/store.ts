import { EmailTakenError, EmailUnknownError, UserNotFoundError, type NewUser, type User } from './api.js';

/** An in-memory user store; insertion order is creation order. */
export class UserStore {
  readonly #users = new Map<string, User>();

  create(input: NewUser): User {
    const email = input.email.toLowerCase();
    for (const u of this.#users.values()) if (u.email.toLowerCase() === email) throw new EmailTakenError(input.email);
    const user: User = { id: crypto.randomUUID(), name: input.name, email: input.email, createdAt: new Date() };
    this.#users.set(user.id, user);
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
  }
}
