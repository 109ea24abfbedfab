import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'bench/results/**', '**/*.generated.*'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        performance: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        structuredClone: 'readonly',
        fetch: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  // Page functions passed to page.evaluate run in the browser.
  { files: ['bench/**/*.mjs'], languageOptions: { globals: { window: 'readonly', document: 'readonly' } } },
  // The MiniWoB-protocol fixture script runs in the browser as a classic script: its `var`s are
  // the protocol's globals, read by the environment, and genProblem comes from the task page.
  {
    files: ['**/test/fixtures/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { window: 'readonly', document: 'readonly', genProblem: 'readonly' },
    },
    rules: { 'no-var': 'off', '@typescript-eslint/no-unused-vars': 'off' },
  },
  // Tests read arbitrary JSON replies from the wire.
  { files: ['**/test/**/*.ts', '**/*.test.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
