/** RFC 9110 §15 reason phrases (plus 418, 422, 425, 426, 428, 429, 431, 451, 511 from their RFCs). */
const REASON_PHRASES: Readonly<Record<string, string>> = {
  '100': 'Continue',
  '101': 'Switching Protocols',
  '102': 'Processing',
  '103': 'Early Hints',
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '203': 'Non-Authoritative Information',
  '204': 'No Content',
  '205': 'Reset Content',
  '206': 'Partial Content',
  '207': 'Multi-Status',
  '300': 'Multiple Choices',
  '301': 'Moved Permanently',
  '302': 'Found',
  '303': 'See Other',
  '304': 'Not Modified',
  '305': 'Use Proxy',
  '307': 'Temporary Redirect',
  '308': 'Permanent Redirect',
  '400': 'Bad Request',
  '401': 'Unauthorized',
  '402': 'Payment Required',
  '403': 'Forbidden',
  '404': 'Not Found',
  '405': 'Method Not Allowed',
  '406': 'Not Acceptable',
  '407': 'Proxy Authentication Required',
  '408': 'Request Timeout',
  '409': 'Conflict',
  '410': 'Gone',
  '411': 'Length Required',
  '412': 'Precondition Failed',
  '413': 'Content Too Large',
  '414': 'URI Too Long',
  '415': 'Unsupported Media Type',
  '416': 'Range Not Satisfiable',
  '417': 'Expectation Failed',
  '418': "I'm a teapot",
  '421': 'Misdirected Request',
  '422': 'Unprocessable Content',
  '423': 'Locked',
  '424': 'Failed Dependency',
  '425': 'Too Early',
  '426': 'Upgrade Required',
  '428': 'Precondition Required',
  '429': 'Too Many Requests',
  '431': 'Request Header Fields Too Large',
  '451': 'Unavailable For Legal Reasons',
  '500': 'Internal Server Error',
  '501': 'Not Implemented',
  '502': 'Bad Gateway',
  '503': 'Service Unavailable',
  '504': 'Gateway Timeout',
  '505': 'HTTP Version Not Supported',
  '507': 'Insufficient Storage',
  '508': 'Loop Detected',
  '511': 'Network Authentication Required',
};

/** Descriptions of the status ranges OpenAPI allows as response keys (RFC 9110 §15 classes). */
const CLASS_PHRASES: Readonly<Record<string, string>> = {
  '1': 'Informational',
  '2': 'Successful',
  '3': 'Redirection',
  '4': 'Client Error',
  '5': 'Server Error',
};

/**
 * The text a response without a description gets: the RFC 9110
 * reason phrase of `status` (`404` → `'Not Found'`), the class name of a range (`'4XX'` →
 * `'Client Error'`), `'Default response'` for `'default'`, else `'Status {status}'`.
 * Never throws.
 */
export function reasonPhrase(status: string | number): string {
  const s = String(status);
  const known = REASON_PHRASES[s];
  if (known !== undefined) return known;
  if (s === 'default') return 'Default response';
  const range = /^([1-5])XX$/.exec(s);
  if (range !== null) return CLASS_PHRASES[range[1] as string] as string;
  return `Status ${s}`;
}
