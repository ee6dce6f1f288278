/**
 * Calls an observer's callback: what it throws is dropped, so that an observer never breaks a
 * request. Every observer call of the server goes through it.
 */
export function observeSafely(call: () => void): void {
  try {
    call();
  } catch {
    // An observer never breaks a request.
  }
}
