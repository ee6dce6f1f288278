/**
 * One `Uint8Array` holding `chunks` in order. A single chunk is returned as it is (not copied);
 * `size`, when given, must be the sum of the chunks' `byteLength`s (it saves summing them).
 */
export function concatBytes(chunks: readonly Uint8Array[], size?: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(size ?? chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Reads a body to its end and returns it as one `Uint8Array`. Rejects as `chunks` does (a
 * body limit, an aborted read); nothing bounds the size here, so give it bounded chunks.
 */
export async function collectBytes(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const c of chunks) {
    parts.push(c);
    size += c.byteLength;
  }
  return concatBytes(parts, size);
}
