/** RFC 9110 §15 reason phrases of the statuses this library documents or sends. */
const REASONS: Readonly<Record<number, string>> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 206: 'Partial Content',
  301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable',
  408: 'Request Timeout', 409: 'Conflict', 410: 'Gone', 412: 'Precondition Failed', 413: 'Content Too Large', 415: 'Unsupported Media Type',
  422: 'Unprocessable Content', 429: 'Too Many Requests',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** The reason phrase of `status` (`404` → `Not Found`); ranges (`'4XX'`) and unknown codes get a generic phrase. */
export function reasonPhrase(status: number | string): string {
  const n = typeof status === 'number' ? status : /^\d{3}$/.test(status) ? Number(status) : NaN;
  const known = REASONS[n];
  if (known !== undefined) return known;
  const cls = String(status)[0];
  return cls === '2' ? 'Success' : cls === '3' ? 'Redirection' : cls === '4' ? 'Client error' : cls === '5' ? 'Server error' : 'Response';
}
