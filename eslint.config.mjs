import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read process.env only in config/ files.',
        },
      ],
      // Types (DataSource, EntityManager) may travel; TypeORM calls stay in repositories.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'typeorm',
              message: 'typeorm belongs in repositories/, entities/ and migrations/.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // The portal's bundle carries no server code: contracts lend it their types, and the API paths
    // as values (a module of plain strings, kept import-free below).
    files: ['apps/web/src/**/*.ts', 'apps/web/src/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@app/(?!contracts/http/api-paths$)',
              message:
                'The web app may import only types from the libraries (`import type`), and values from @app/contracts/http/api-paths.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // The one contracts module the browser bundle loads as values: a value import here (zod, a
    // schema) would land in the portal's first page.
    files: ['libs/contracts/src/http/api-paths.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['*'],
              message: 'api-paths.ts is bundled into the web portal: import types only (`import type`).',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/config/**/*.ts', 'test/**/*.ts', '**/test/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: [
      '**/repositories/**/*.ts',
      '**/entities/**/*.ts',
      '**/migrations/**/*.ts',
      '**/persistence/**/*.ts',
      'test/**/*.ts',
      '**/test/**/*.ts',
      'scripts/**/*.ts',
    ],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
);
