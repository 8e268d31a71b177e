import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/out/',
      'dist/',
      'imports/',
      'coverage/',
      '**/*.cjs',
      // jsii's output, the wheel and npm run test:python's work folder
      'jsii/lib/',
      'jsii/dist/',
      'jsii/.work/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    // jsii's type for free-form JSON (parameters, driver config) is `any`, as in cdk8s's own props.
    files: ['jsii/src/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests poke at synthesized manifests, whose shapes are asserted rather than typed.
    files: ['test/**/*.ts', '*/test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The packages are built to CommonJS, where these names are the module's own: a local `exports`
    // silently replaced `exports.X` in the built output while the ESM sources under jest worked.
    files: ['lib/**/*.ts', '*/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'VariableDeclarator > Identifier.id',
          ':function > Identifier.params',
          'CatchClause > Identifier.param',
        ].map((where) => ({
          selector: `${where}[name=/^(exports|module|require|__filename|__dirname)$/]`,
          message: 'this name is the CommonJS module scope in the built package; choose another',
        })),
      ],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
