// A require hook for bench scripts: compiles .ts on load with TypeScript's transpiler and resolves
// the `@app/*` aliases of tsconfig.json, so a bench runs from source without a separate build.
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');
const ts = require('typescript');

const ROOT = path.join(__dirname, '..');
const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile).config;
const compilerOptions = {
  ...ts.convertCompilerOptionsFromJson(config.compilerOptions, ROOT).options,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  sourceMap: false,
  inlineSourceMap: true,
};

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const alias = /^@app\/(contracts|platform|messaging|vim25)(\/.*)?$/.exec(request);
  if (alias) request = path.join(ROOT, 'libs', alias[1], 'src', alias[2] ?? '');
  return resolve.call(this, request, parent, ...rest);
};

require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
