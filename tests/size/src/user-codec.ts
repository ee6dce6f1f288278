// The benchmark's user object, declared and decoded in a browser: @lib/codec + @lib/validate.
import { user, type User } from './user-api.js';

export function readUser(json: unknown): User {
  return user.decode(json);
}
