import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The compiler's messages for `source`, a module beside this file, each as `tsc` prints it
 * (`file(line,col): error TS…: message`): the first line is what a user reads first.
 */
function compile(source: string): string[] {
  const file = join(here, '__deliberate_mistake__.ts');
  const config = ts.getParsedCommandLineOfConfigFile(join(here, '..', '..', 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (config === undefined) throw new Error('tsconfig.json did not parse');
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => (name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], config.options, host);
  const formatHost: ts.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => here, getNewLine: () => '\n' };
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.formatDiagnostic(d, formatHost).replace(`${file}`, '__deliberate_mistake__.ts'));
}

const prelude = `import * as codec from '@lib/codec';
import * as rest from '../index.js';
const todo = codec.object({ id: codec.string(), title: codec.string() });
`;

describe('compile errors lead with their sentence', () => {
  const cases: [string, string, string][] = [
    ['a template variable without a path parameter', `rest.route({ method: 'GET', path: '/todos/{id}', response: todo });`, 'path variable {id} has no path parameter: add it to pathParams'],
    ['a path parameter the template lacks', `rest.route({ method: 'GET', path: '/todos/{id}', pathParams: { id: codec.string(), todoId: codec.string() } });`, 'pathParams.todoId is not a variable of the path template /todos/{id}'],
    ['a :name segment', `rest.route({ method: 'GET', path: '/todos/:id' });`, 'path variables are written {name}, not :name'],
    ['a body on GET', `rest.route({ method: 'GET', path: '/todos', body: todo, response: todo });`, 'GET requests carry no body: declare its fields as parameters, or use POST, PUT or PATCH'],
    [
      'a status the route does not declare',
      `rest.route({ method: 'PUT', path: '/todos', body: todo, response: todo, successes: { 201: todo } }).withHandler((_ctx, req, respond) => respond(202, req));`,
      "Argument of type '202' is not assignable to parameter of type '20",
    ],
  ];
  it.each(cases)('%s', (_what, code, sentence) => {
    const messages = compile(prelude + code);
    expect(messages).toHaveLength(1);
    const first = (messages[0] as string).split('\n')[0] as string;
    // The sentence is on the first line, within its first 200 characters.
    expect(first.slice(0, 200)).toContain(sentence);
  }, 60_000);

  it('compiles the same declarations written right', () => {
    const ok = `rest.route({ method: 'GET', path: '/todos/{id}', pathParams: { id: codec.string() }, response: todo });
rest.route({ method: 'PUT', path: '/todos', body: todo, response: todo, successes: { 201: todo } }).withHandler((_ctx, req, respond) => (req.id === '' ? respond(201, req) : req));`;
    expect(compile(prelude + ok)).toEqual([]);
  }, 60_000);
});
