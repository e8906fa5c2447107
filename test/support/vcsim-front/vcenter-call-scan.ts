import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/** One vCenter call found in the product's code. */
export interface FoundCall {
  /** `<ManagedObjectType>.<Method>` (SOAP) or `<VERB> <REST_PATHS key>` (REST). */
  readonly call: string;
  /** `file:line` of the call, for the failure message. */
  readonly at: string;
}

/** What the scan found: the calls, and the places it could not read a call from (each a failure). */
export interface CallScan {
  readonly soap: FoundCall[];
  readonly rest: FoundCall[];
  readonly unreadable: string[];
}

// The vim25 client's entry points that name a SOAP method: the method is their argument at this index.
const SOAP_ENTRY_POINTS: Record<string, number> = { invoke: 1, invokeForMoRef: 1, buildEnvelope: 0 };
// The functions that pass a method name they were given on (they make no call of their own).
const DISPATCHERS = new Set(['invoke', 'invokeForMoRef']);
// A vCenter call made around the client: a SOAP body written by hand, a vSphere Automation path
// written out instead of taken from REST_PATHS.
const HAND_MADE_SOAP = /soapenv:Body/;
const HAND_MADE_REST_PATH = /^\/api\/(vcenter|content|session|cis|appliance)\b/;

/** The product's TypeScript sources: apps/*\/src and libs/*\/src, without specs. */
export function productSources(root: string): string[] {
  const files: string[] = [];
  for (const top of ['apps', 'libs']) {
    for (const pkg of readdirSync(join(root, top), { withFileTypes: true })) {
      if (!pkg.isDirectory()) continue;
      const src = join(root, top, pkg.name, 'src');
      let entries: string[];
      try {
        entries = readdirSync(src, { recursive: true, encoding: 'utf8' });
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (entry.endsWith('.ts') && !entry.endsWith('.spec.ts') && !entry.endsWith('.d.ts'))
          files.push(join(src, entry));
      }
    }
  }
  return files.sort();
}

/** Whether `specifier`, imported by `file`, is the vim25 client (`@app/vim25`, or a path inside it). */
function isVim25(file: string, specifier: string, vim25Src: string): boolean {
  if (specifier === '@app/vim25' || specifier.startsWith('@app/vim25/')) return true;
  if (!specifier.startsWith('.')) return false;
  const target = join(file, '..', specifier);
  return !relative(vim25Src, target).startsWith('..');
}

/** The names this file may use for the vim25 entry points (imported from it, or its own when inside it). */
function entryPointNames(source: ts.SourceFile, file: string, vim25Src: string): Map<string, string> {
  const names = new Map<string, string>();
  const inside = !relative(vim25Src, file).startsWith('..');
  if (inside) for (const name of Object.keys(SOAP_ENTRY_POINTS)) names.set(name, name);
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings === undefined || !ts.isNamedImports(bindings)) continue;
    const fromVim25 = isVim25(file, statement.moduleSpecifier.text, vim25Src);
    for (const element of bindings.elements) {
      const imported = (element.propertyName ?? element.name).text;
      if (fromVim25 && imported in SOAP_ENTRY_POINTS) names.set(element.name.text, imported);
      else names.delete(element.name.text); // a name of the same spelling from elsewhere (libs/messaging)
    }
  }
  return names;
}

/** The function (declaration, or a const holding one) a node is in, with the statement its doc comment is on. */
function enclosingFunction(node: ts.Node): { name?: string; documented: ts.Node } | undefined {
  for (let n: ts.Node | undefined = node.parent; n !== undefined; n = n.parent) {
    if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n))
      return { name: n.name?.getText(), documented: n };
    if (ts.isVariableStatement(n) && ts.isSourceFile(n.parent)) return { documented: n };
  }
  return undefined;
}

function docComment(source: ts.SourceFile, node: ts.Node): string {
  const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? [];
  return ranges.map((r) => source.text.slice(r.pos, r.end)).join('\n');
}

function lineOf(source: ts.SourceFile, root: string, node: ts.Node): string {
  const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
  return `${relative(root, source.fileName).split(sep).join('/')}:${line + 1}`;
}

/** `REST_PATHS.<key>` or `REST_PATHS.<key>(...)`: the key, else undefined. */
function restPathKey(expression: ts.Expression): string | undefined {
  const access = ts.isCallExpression(expression) ? expression.expression : expression;
  if (!ts.isPropertyAccessExpression(access)) return undefined;
  if (!ts.isIdentifier(access.expression) || access.expression.text !== 'REST_PATHS') return undefined;
  return access.name.text;
}

function property(literal: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of literal.properties)
    if (ts.isPropertyAssignment(p) && p.name.getText() === name) return p.initializer;
  return undefined;
}

/**
 * Reads every vCenter call from the product's sources under `root`: SOAP methods named as a string
 * literal to the vim25 entry points (the managed object type from the calling function's doc
 * comment, `Type.Method: ...`), and REST operations as `{ method: '<VERB>', path: REST_PATHS.<key> }`.
 * A call it cannot read (a method name that is not a literal, no type in the doc comment, a
 * REST_PATHS path used any other way, a SOAP body or `/api` path of vCenter's written by hand) is
 * listed in `unreadable`.
 */
export function scanVcenterCalls(root: string): CallScan {
  const vim25Src = join(root, 'libs', 'vim25', 'src');
  const scan: CallScan = { soap: [], rest: [], unreadable: [] };
  for (const file of productSources(root)) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const entryPoints = entryPointNames(source, file, vim25Src);
    const restPathsFile = file === join(vim25Src, 'rest', 'rest-paths.ts');
    const envelopeFile = file === join(vim25Src, 'soap', 'soap-envelope.ts');
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
        const entry = entryPoints.get(node.expression.text);
        if (entry !== undefined) readSoapCall(node, entry);
      }
      if (ts.isObjectLiteralExpression(node)) readRestCall(node);
      if (ts.isPropertyAccessExpression(node) && !restPathsFile) checkRestPathUse(node);
      if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node)) checkHandMade(node);
      ts.forEachChild(node, visit);
    };
    const readSoapCall = (node: ts.CallExpression, entry: string) => {
      const fn = enclosingFunction(node);
      const arg = node.arguments[SOAP_ENTRY_POINTS[entry] ?? 0];
      if (arg === undefined || !ts.isStringLiteralLike(arg)) {
        if (fn?.name === undefined || !DISPATCHERS.has(fn.name))
          scan.unreadable.push(
            `${lineOf(source, root, node)}: ${entry}() with a method name that is not a literal`,
          );
        return;
      }
      const method = arg.text;
      const type =
        fn === undefined
          ? undefined
          : new RegExp(`\\b([A-Z]\\w*)\\.${method}\\b`).exec(docComment(source, fn.documented));
      if (type === null || type === undefined) {
        scan.unreadable.push(
          `${lineOf(source, root, node)}: ${method} called without "<ManagedObjectType>.${method}" in the doc comment of the function calling it`,
        );
        return;
      }
      scan.soap.push({ call: `${type[1]}.${method}`, at: lineOf(source, root, node) });
    };
    const readRestCall = (node: ts.ObjectLiteralExpression) => {
      const verb = property(node, 'method');
      const path = property(node, 'path');
      if (verb === undefined || path === undefined) return;
      const key = restPathKey(path);
      if (key === undefined) return;
      if (!ts.isStringLiteralLike(verb)) {
        scan.unreadable.push(
          `${lineOf(source, root, node)}: REST_PATHS.${key} with an HTTP method that is not a literal`,
        );
        return;
      }
      scan.rest.push({ call: `${verb.text} ${key}`, at: lineOf(source, root, node) });
    };
    const checkRestPathUse = (node: ts.PropertyAccessExpression) => {
      if (!ts.isIdentifier(node.expression) || node.expression.text !== 'REST_PATHS') return;
      // Allowed: the `path:` of a request literal that names its method (read above).
      let n: ts.Node = node;
      if (ts.isCallExpression(n.parent) && n.parent.expression === n) n = n.parent;
      const assignment = n.parent;
      if (
        ts.isPropertyAssignment(assignment) &&
        assignment.name.getText() === 'path' &&
        ts.isObjectLiteralExpression(assignment.parent) &&
        property(assignment.parent, 'method') !== undefined
      )
        return;
      scan.unreadable.push(
        `${lineOf(source, root, node)}: REST_PATHS.${node.name.text} used outside a { method, path } request literal`,
      );
    };
    const checkHandMade = (node: ts.StringLiteralLike | ts.TemplateHead) => {
      if (!envelopeFile && HAND_MADE_SOAP.test(node.text))
        scan.unreadable.push(
          `${lineOf(source, root, node)}: a SOAP body written by hand (use buildEnvelope)`,
        );
      if (!restPathsFile && HAND_MADE_REST_PATH.test(node.text))
        scan.unreadable.push(
          `${lineOf(source, root, node)}: a vSphere Automation path written out (use REST_PATHS)`,
        );
    };
    visit(source);
  }
  return scan;
}
