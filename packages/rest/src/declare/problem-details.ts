import * as codec from '@lib/codec';
import { DecodeError, toJsonPointer } from '@lib/codec';
import { reasonPhrase } from '@lib/openapi';
import { findError } from './error-rules.js';
import { messageOf, ParamError, RequestBodyError, RequestValidationError } from './errors.js';
import type { ErrorHandler, Options } from './options.js';

/** The media type of a problem details object (RFC 9457 §3). */
export const PROBLEM_JSON = 'application/problem+json';

/** One failing value of a request, in the `errors` extension member of a validation problem. */
export interface ValidationIssue {
  /** What is wrong with the value. */
  detail: string;
  /** Where the value was sent. */
  in?: 'path' | 'query' | 'header' | 'cookie' | 'body' | undefined;
  /** The parameter, for a path, query, header or cookie value. */
  name?: string | undefined;
  /** A JSON Pointer (RFC 6901) to the value in the body, as a URI fragment: `#/items/0/name`. */
  pointer?: string | undefined;
}

/** A problem details object (RFC 9457 §3.1), with the `errors` extension member of a validation failure. */
export interface ProblemDetails {
  /** A URI reference identifying the problem type; `about:blank` when the status says it all. */
  type: string;
  /** The status's reason phrase. */
  title: string;
  /** The HTTP status code of the answer. */
  status: number;
  /** What went wrong with this request. */
  detail?: string | undefined;
  /** A URI reference identifying this occurrence. */
  instance?: string | undefined;
  /** The values that failed validation, one entry each. */
  errors?: ValidationIssue[] | undefined;
}

/** The codec of {@link ValidationIssue}, named `ValidationIssue` in the document. */
export const validationIssue: codec.Codec<ValidationIssue> = codec
  .object({
    detail: codec.string().withDescription('What is wrong with the value.'),
    in: codec.optional(codec.untaggedUnion(codec.literal('path'), codec.literal('query'), codec.literal('header'), codec.literal('cookie'), codec.literal('body')).withDescription('Where the value was sent.')),
    name: codec.optional(codec.string().withDescription('The parameter, for a path, query, header or cookie value.')),
    pointer: codec.optional(codec.string().withDescription('A JSON Pointer (RFC 6901) to the value in the body, as a URI fragment (`#/items/0/name`).')),
  })
  .withName('ValidationIssue');

/**
 * The codec of a problem details object (RFC 9457 §3.1), named `ProblemDetails`: `type` (`about:blank`: the status says it all),
 * `title` (the status's reason phrase), `status`, `detail` (for a 4xx, what was wrong; for a 5xx,
 * the reason phrase only — nothing of the server's own), and, for a request that failed
 * validation, the extension member `errors`: one entry per failing value.
 */
export const problemDetails: codec.Codec<ProblemDetails> = codec
  .object({
    type: codec.string().withDescription('A URI reference identifying the problem type; `about:blank` when the status says it all (RFC 9457 §3.1.1).'),
    title: codec.string().withDescription('A short summary of the problem type: the status reason phrase (RFC 9457 §3.1.3).'),
    status: codec.int().withDescription('The HTTP status code of this answer (RFC 9457 §3.1.2).'),
    detail: codec.optional(codec.string().withDescription('What went wrong with this request (RFC 9457 §3.1.4).')),
    instance: codec.optional(codec.string().withDescription('A URI reference identifying this occurrence (RFC 9457 §3.1.5).')),
    errors: codec.optional(codec.array(validationIssue).withDescription('The values that failed validation, one entry each (an extension member, RFC 9457 §3.2).')),
  })
  .withName('ProblemDetails');


/** The issues of a validation failure: each failing parameter, and each issue of the body. */
function issuesOf(failure: RequestValidationError): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const e of failure.errors as unknown[]) {
    if (e instanceof ParamError) out.push({ detail: messageOf(e.cause), in: e.location, name: e.paramName });
    else if (e instanceof RequestBodyError) {
      const decode = e.cause instanceof DecodeError ? e.cause : undefined;
      if (decode === undefined) out.push({ detail: e.message, in: 'body' });
      else for (const issue of decode.issues) out.push({ detail: issue.message, in: 'body', pointer: `#${toJsonPointer(issue.path)}` });
    } else out.push({ detail: messageOf(e) });
  }
  return out;
}

/**
 * The `errorHandler` of {@link withProblemDetails}: every error answer as a problem details
 * object (RFC 9457), keeping the status the error rules chose.
 */
export const problemDetailsHandler: ErrorHandler = (_ctx, err, status) => {
  const title = reasonPhrase(status);
  const body: ProblemDetails = { type: 'about:blank', title, status, detail: status >= 500 ? title : messageOf(err) };
  const invalid = status < 500 ? findError(err, RequestValidationError) : undefined;
  if (invalid !== undefined) body.errors = issuesOf(invalid);
  return { body };
};

/** The options {@link withProblemDetails} sets. */
export const PROBLEM_DETAILS_OPTIONS: Options = { errorHandler: problemDetailsHandler, errorBody: problemDetails, errorMediaType: PROBLEM_JSON };
