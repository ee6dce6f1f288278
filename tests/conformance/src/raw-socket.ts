/**
 * A raw HTTP/1.1 client over `node:net`, for what `fetch` will not send: malformed requests,
 * half-sent requests, uploads that stop midway. It writes exact bytes and reads what comes back.
 */
import { connect, type Socket } from 'node:net';

/** A response as read off the socket. */
export interface RawReply {
  readonly status: number;
  /** Header names lower-cased; repeated headers joined with `, ` (set-cookie kept apart). */
  readonly headers: Readonly<Record<string, string>>;
  readonly setCookies: readonly string[];
  readonly body: string;
  /** True when the server closed the connection (not the client). */
  readonly closedByServer: boolean;
}

/** Host and port of a base URL (`http://127.0.0.1:1234`). */
export function hostPort(baseURL: string): { readonly host: string; readonly port: number } {
  const u = new URL(baseURL);
  return { host: u.hostname, port: Number(u.port) };
}

/** Opens a connection and resolves once it is established. */
export function open(baseURL: string): Promise<Socket> {
  const { host, port } = hostPort(baseURL);
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port }, () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Parses the first response in `data`; `undefined` while it is incomplete. */
export function parseReply(data: Buffer, closed: boolean): Omit<RawReply, 'closedByServer'> | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const lines = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number((lines[0] ?? '').split(' ')[1]);
  const headers: Record<string, string> = {};
  const setCookies: string[] = [];
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    const k = line.slice(0, i).trim().toLowerCase();
    const v = line.slice(i + 1).trim();
    if (k === 'set-cookie') setCookies.push(v);
    else headers[k] = headers[k] === undefined ? v : `${headers[k]}, ${v}`;
  }
  let body = data.subarray(end + 4);
  const length = headers['content-length'];
  if (length !== undefined) {
    if (body.length < Number(length)) return undefined;
    body = body.subarray(0, Number(length));
  } else if (headers['transfer-encoding'] === 'chunked') {
    const chunks: Buffer[] = [];
    let rest = body;
    for (;;) {
      const nl = rest.indexOf('\r\n');
      if (nl === -1) return undefined;
      const size = parseInt(rest.subarray(0, nl).toString('latin1'), 16);
      if (size === 0) break;
      if (rest.length < nl + 2 + size + 2) return undefined;
      chunks.push(rest.subarray(nl + 2, nl + 2 + size));
      rest = rest.subarray(nl + 2 + size + 2);
    }
    body = Buffer.concat(chunks);
  } else if (!closed && status !== 204 && status !== 304) return undefined;
  return { status, headers, setCookies, body: body.toString('utf8') };
}

/**
 * Waits for the first complete response on `socket`, or for the server to close it.
 * Rejects after `timeoutMs` (the server hung) or when the connection closes with no response.
 * With `untilClose`, also waits for the server to close the connection.
 */
export function readReply(socket: Socket, timeoutMs = 5000, untilClose = false): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let reply: Omit<RawReply, 'closedByServer'> | undefined;
    const timer = setTimeout(() => {
      done();
      socket.destroy();
      reject(new Error(reply === undefined ? `no response within ${timeoutMs} ms` : `connection not closed within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = (): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', onEnd);
    };
    const onData = (c: Buffer): void => {
      chunks.push(c);
      reply = parseReply(Buffer.concat(chunks), false);
      if (reply !== undefined && !untilClose) {
        done();
        resolve({ ...reply, closedByServer: false });
      }
    };
    const onEnd = (): void => {
      done();
      reply = parseReply(Buffer.concat(chunks), true);
      if (reply === undefined) reject(new Error(`connection closed without a response (${Buffer.concat(chunks).length} bytes)`));
      else resolve({ ...reply, closedByServer: true });
    };
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.once('error', onEnd);
  });
}
